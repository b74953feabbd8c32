import Foundation
import OMDbKit

/// `movies episodes IMDBID|QUERY [--season S] [--json]`: one season's episodes, then exit.
/// A QUERY (anything that is not an imdbID) means the first series a search for it finds.
@MainActor
struct EpisodesOneShot {
    let session: Session
    let console: Console
    let interrupts: Interrupts

    func run(target: String, season: Int, json: Bool) async -> ExitStatus {
        let session = self.session
        let console = self.console
        return await OneShot(session: session, console: console, interrupts: interrupts).run {
            var seriesID = target
            if target.wholeMatch(of: /tt\d{7,8}/) == nil {
                do {
                    let page = try await session.client.search(target, type: .series)
                    guard let first = page.items.first else { throw OMDbError.notFound(query: target) }
                    seriesID = first.imdbID
                } catch {
                    return session.report(error)
                }
            }
            guard json else {
                return await session.listSeason(of: seriesID, season: season)
            }
            do {
                let list = try await session.client.season(imdbID: seriesID, number: season)
                for episode in list.episodes { console.out(Self.line(episode, in: list)) }
                return .success
            } catch {
                return session.report(error)
            }
        }
    }

    /// `{"seriesID":…,"series":…,"season":1,"episode":"3","title":…,"released":…|null,"imdbRating":…|null,"imdbID":…}`
    static func line(_ episode: Episode, in season: Season) -> String {
        let text = JSONPresenter.encode
        let fields = [
            ("episode", episode.number.map(String.init) ?? text(episode.episodeText)), ("imdbID", text(episode.imdbID)),
            ("imdbRating", episode.imdbRating.map(text) ?? "null"), ("released", episode.released.map(text) ?? "null"),
            ("season", String(season.number)), ("series", text(season.seriesTitle)), ("seriesID", text(season.seriesID)),
            ("title", text(episode.title)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
