import Foundation
import OMDbKit

/// `movies episodes IMDBID|QUERY [--season S] [--json]`: one season's episodes, then exit.
/// A QUERY (anything that is not an imdbID) means the first series a search for it finds.
@MainActor
struct EpisodesOneShot {
    let session: Session
    let console: Console

    func run(target: String, season: Int, json: Bool) async -> Int32 {
        let session = self.session
        let console = self.console
        return await OneShot(session: session, console: console).run {
            var seriesID = target
            if target.wholeMatch(of: /tt\d{7,8}/) == nil {
                do {
                    let page = try await session.client.search(target, type: .series)
                    guard let first = page.items.first else { throw OMDbError.notFound(query: target) }
                    seriesID = first.imdbID
                } catch {
                    session.report(error)
                    return
                }
            }
            guard json else {
                await session.listSeason(of: seriesID, season: season)
                return
            }
            do {
                let list = try await session.client.season(imdbID: seriesID, number: season)
                for episode in list.episodes { console.out(Self.line(episode, in: list)) }
            } catch {
                session.report(error)
            }
        }
    }

    /// `{"seriesID":…,"series":…,"season":1,"episode":"3","title":…,"released":…|null,"imdbRating":…|null,"imdbID":…}`
    static func line(_ episode: Episode, in season: Season) -> String {
        let object: [String: Any] = [
            "seriesID": season.seriesID, "series": season.seriesTitle, "season": season.number,
            "episode": episode.number.map { $0 as Any } ?? episode.episodeText, "title": episode.title,
            "released": episode.released ?? NSNull(), "imdbRating": episode.imdbRating ?? NSNull(), "imdbID": episode.imdbID,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
