/** `@mariozechner/pi-ai` / `@earendil-works/pi-ai`: the LLM layer as extensions see it. Grows with the LLM issue. */
export { Type } from "@sinclair/typebox";
export { StringEnum } from "./string-enum.ts";
