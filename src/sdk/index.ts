export { HOST_PACKAGES, VIRTUAL_MODULES } from "./virtual-modules.ts";
