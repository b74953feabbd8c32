import Foundation
import OMDbKit

/// `movies episodes IMDBID|QUERY [--season S]`: one season's episodes, then exit. A QUERY means the
/// first series a search for it finds.
@MainActor
struct EpisodesOneShot {
    let session: Session
    let console: Console
    let interrupts: Interrupts

    func run(target: String, season: Int, lines: LineFormat?) async -> ExitStatus {
        return await OneShot(session: session, console: console, interrupts: interrupts).run { [session, console] in
            var seriesID = target
            if target.wholeMatch(of: /tt\d{7,8}/) == nil {
                do {
                    let page = try await session.client.search(target, type: .series).next()
                    guard let first = page.items.first else { throw OMDbError.notFound(query: target) }
                    seriesID = first.imdbID
                } catch {
                    // No such series: a failure, said as at the prompt.
                    let status = session.report(error)
                    if case .notFound? = (error as? OMDbError)?.underlying { return .failure }
                    return status
                }
            }
            do {
                // Asked once: listSeason below takes the same answer from the client's memo.
                let list = try await session.client.season(imdbID: seriesID, number: season)
                // Nothing to list (a movie, a season past the last) is no success for a script.
                guard !list.episodes.isEmpty else {
                    console.error(Self.nothingToList(list))
                    return .failure
                }
                guard let lines else {
                    return await session.listSeason(of: seriesID, season: season)
                }
                for episode in list.episodes { console.out(Self.line(episode, in: list, format: lines)) }
                return .success
            } catch {
                let status = session.report(error)
                if case .seasonNotFound? = (error as? OMDbError)?.underlying { return .failure }
                return status
            }
        }
    }

    /// Why `season` lists no episode, and what to ask instead.
    static func nothingToList(_ season: Season) -> String {
        let title = "\(safe(season.seriesTitle)) (\(safe(season.seriesID)))"
        guard let total = season.totalSeasons else {
            return "OMDb lists no seasons for \(title): episodes takes a series, and this looks like a movie."
        }
        if season.number > total {
            return "\(title) has \(total) season\(total == 1 ? "" : "s"), so there is no season \(season.number): give --season 1 to \(total)."
        }
        return "OMDb lists no episodes for season \(season.number) of \(title): try another with --season."
    }

    /// One ``EpisodeOutput`` on a line, as `format` writes it.
    static func line(_ episode: Episode, in season: Season, format: LineFormat = .json(fields: nil)) -> String {
        format.line(EpisodeOutput(episode, in: season))
    }
}
