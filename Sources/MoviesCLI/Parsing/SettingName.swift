/// The settings that `type`, `year` and `plot` typed alone report.
public enum SettingName: Sendable, Equatable {
    case type, year, plot
}
