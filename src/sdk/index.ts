export { HOST_PACKAGES, loadVirtualModules, VIRTUAL_SPECIFIERS } from "./virtual-modules.ts";
