import Foundation
import OMDbKit

/// `posters DIR [WIDTH]` and `posters off`: where posters go (`posters` alone, and `type`, `year` or `plot`
/// alone, are answered in ``Session/handle(_:)``).
extension Session {
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
