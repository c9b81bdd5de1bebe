import { ExtenderArgsError } from "./parse-extender-args.js";

/** A request body as JSON; ExtenderArgsError (a 400 for the caller) when it is empty or not JSON. */
export function decodeJson(text: string): unknown {
  if (text.trim() === "") throw new ExtenderArgsError("empty request body: expected ExtenderArgs JSON");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ExtenderArgsError(`malformed JSON: ${(err as Error).message}`);
  }
}
