/// The settings that `type`, `year` and `plot` typed alone report.
enum SettingName: Sendable, Equatable {
    case type, year, plot
}
