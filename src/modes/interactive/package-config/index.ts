// `pi config`: the screen here, and the model and settings writes it shares with the command's scriptable form.
export {
	buildConfigPackages,
	type ConfigInput,
	type ConfigPackage,
	type ConfigResource,
	displayName,
	findResource,
	type OverrideState,
	parseResourceType,
} from "../../package-config/model.ts";
export { nextOverride, projectConfigPackages } from "../../package-config/project-view.ts";
export { type ToggleContext, toggleResource } from "../../package-config/toggle.ts";
export {
	setProjectOverride,
	setResourceEnabled,
	withProjectOverride,
	withResourceToggled,
} from "../../package-config/write.ts";
export { type PackageConfigScreenOptions, runPackageConfigScreen } from "./run.ts";
export { PackageConfigView, type PackageConfigViewOptions } from "./view.ts";
