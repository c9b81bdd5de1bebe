export { ConfigError } from "./config-error.js";
export { loadConfig, parseConfig, redactConfig } from "./load-config.js";
export { configSchema, MAPPING_RULES, type Config, type MappingRule, type Thresholds } from "./schema.js";
export { extenderAddress, isLoopbackAddress, plaintextIssues, plaintextUses } from "./plaintext-issues.js";
