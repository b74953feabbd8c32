import Foundation
import OMDbKit
import OMDbCatalogue

extension Catalogue {
    /// A catalogue of `titles` made-up titles, `Bench Title 1` to `Bench Title N`, that all match
    /// the query `bench`: as many pages as wanted (ten titles a page), each with a plot and a
    /// poster path. Written as `catalogue.json` into `folder` (created if missing).
    /// For benchmarks and tests that need more pages than the fixtures hold.
    public static func synthetic(titles: Int, in folder: URL) throws -> Catalogue {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let entries = (0..<titles).map { index -> [String: String] in
            let n = index + 1
            let id = String(format: "tt%07d", 100_000 + n)
            return ["Title": "Bench Title \(n)", "Year": "\(1950 + n % 70)", "imdbID": id, "Type": "movie",
                    "Plot": "Plot of bench title \(n), long enough to wrap once on an eighty-column terminal, as real plots do.",
                    "Poster": "posters/\(id).jpg", "Director": "Someone", "Actors": "Some One, Some Two"]
        }
        try JSONSerialization.data(withJSONObject: entries).write(to: folder.appendingPathComponent("catalogue.json"))
        return try Catalogue(folder: folder)
    }
}
