export { type AdmissionContext, type AdmissionReply, handleAdmissionReview, INTERNAL_ERROR_WARNING } from "./handle-admission-review.js";
export { CertificateReloader, readKeyPair, type KeyPair, type KeyPairFiles } from "../certificate-reloader.js";
export {
  type AdmissionServerDeps,
  DEFAULT_BODY_LIMIT_BYTES,
  MUTATE_PATH,
  type RunningAdmissionServer,
  startAdmissionServer,
} from "./start-admission-server.js";
export { LastKnownFleet, type LastKnownFleetDeps } from "./last-known-fleet.js";
