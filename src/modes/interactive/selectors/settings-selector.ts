/**
 * The `/settings` screen: a rule, every row of settings-items.ts (type to filter; Enter or Space steps a value or
 * opens a submenu; Escape closes), a rule. Each change is reported at once; the caller saves and applies it.
 */
import { Container, type SettingItem, SettingsList } from "../../../tui/index.ts";
import { dialogBorder } from "../dialogs/common.ts";
import type { CyclingSetting, SettingRow, SubmenuSetting } from "./settings-items.ts";
import { settingsListTheme } from "./settings-submenu.ts";

export type SubmenuFactory = NonNullable<SettingItem["submenu"]>;

export interface SettingsSelectorOptions {
	rows: readonly SettingRow[];
	/** The value shown for a cycling row now. */
	valueOf(row: CyclingSetting): string;
	/** The submenu rows: the value shown and the component Enter opens. */
	submenu(row: SubmenuSetting): { value: string; open: SubmenuFactory } | undefined;
	onChange(row: CyclingSetting, value: string): void;
	onClose(): void;
}

export class SettingsSelector extends Container {
	readonly list: SettingsList;

	constructor(o: SettingsSelectorOptions) {
		super();
		const cycling = new Map<string, CyclingSetting>();
		const items: SettingItem[] = [];
		for (const row of o.rows) {
			if (row.kind === "cycle") {
				cycling.set(row.id, row);
				items.push({
					id: row.id,
					label: row.label,
					description: row.description,
					currentValue: o.valueOf(row),
					values: [...row.values],
				});
				continue;
			}
			const sub = o.submenu(row);
			if (!sub) continue;
			items.push({
				id: row.id,
				label: row.label,
				description: row.description,
				currentValue: sub.value,
				submenu: sub.open,
			});
		}
		this.addChild(dialogBorder());
		this.list = new SettingsList(
			items,
			10,
			settingsListTheme(),
			(id, value) => {
				const row = cycling.get(id);
				if (row) o.onChange(row, value);
			},
			() => o.onClose(),
			{ enableSearch: true },
		);
		this.addChild(this.list);
		this.addChild(dialogBorder());
	}

	handleInput(data: string): void {
		this.list.handleInput(data);
	}
}
