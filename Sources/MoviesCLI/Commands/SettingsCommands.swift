import Foundation
import OMDbKit

/// `posters`, and `type`, `year` or `plot` alone: where posters go and what later searches do (which
/// ``Session/handle(_:)`` sets).
extension Session {
    /// `posters` with no folder: where posters go, or that they are off.
    func showPosters() {
        console.out(settings.posters.map {
            "Posters are saved in \(safe($0.path))" + (settings.posterWidth == .standard ? "." : ", \(settings.posterWidth) px wide.")
        } ?? "Posters are off: posters DIR to save them.")
    }

    /// `type`, `year` or `plot` alone: the current value, and the words that change it.
    func showSetting(_ name: SettingName) {
        switch name {
        case .type: console.out("Type: \(settings.type?.rawValue ?? "any") (type movie, series, episode or any to change it).")
        case .year: console.out("Year: \(settings.year.map(String.init) ?? "any") (year 1984, or year any, to change it).")
        case .plot: console.out("Plot: \(settings.plot.rawValue) (plot short or plot full to change it).")
        }
    }

    /// - Parameter width: the new width; `nil` keeps the current one.
    func setPosters(_ folder: String?, width: PosterWidth? = nil) {
        guard let folder else {
            context.settings.posters = nil
            console.out("Posters are off.")
            return
        }
        guard !folder.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            console.error("\"\(safe(folder))\" holds control characters (such as Escape), which make a folder name that cannot be shown or typed: choose a name without them.")
            return
        }
        let url = Settings.posterFolder(folder, relativeTo: context.currentDirectory, home: settings.home)
        let stay = "Posters stay \(settings.posters.map { "in \(safe($0.path))" } ?? "off")."
        if let problem = Self.posterFolderProblem(url) {
            console.error("Cannot use \"\(safe(folder))\" for posters: \(problem). \(stay)")
            return
        }
        do throws(OMDbError) {
            try PosterStore.openFolder(url)
            context.settings.posters = url
            if let width { context.settings.posterWidth = width }
            _ = posterStore   // starts the new folder's listing and sweep now, not at the next search
            console.out("Posters will be saved in \(safe(url.path))" + (settings.posterWidth == .standard ? "." : ", \(settings.posterWidth) px wide."))
        } catch {
            console.error("Cannot use \"\(safe(folder))\" for posters: \(Self.folderReason(error)). \(stay)")
        }
    }

    /// Why `folder` cannot hold posters (a file, under a file, not writable), or `nil`: asked before any download.
    static func posterFolderProblem(_ folder: URL) -> String? {
        do {
            try PosterStore.checkFolder(folder)
            return nil
        } catch {
            return Self.folderReason(error)
        }
    }
}
