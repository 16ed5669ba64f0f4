// `pi config`: the screen here, and the model and settings writes it shares with the command's scriptable form.
export {
	buildConfigPackages,
	type ConfigInput,
	type ConfigPackage,
	type ConfigResource,
	displayName,
	findResource,
	parseResourceType,
} from "../../package-config/model.ts";
export { setResourceEnabled, withResourceToggled } from "../../package-config/write.ts";
export { type PackageConfigScreenOptions, runPackageConfigScreen } from "./run.ts";
export { PackageConfigView, type PackageConfigViewOptions } from "./view.ts";
