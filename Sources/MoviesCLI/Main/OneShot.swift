import Foundation
import OMDbKit
import LineEditing

/// `movies search …`, `movies show …`, `movies episodes …`: one command, then exit with its outcome.
@MainActor
struct OneShot {
    let session: Session
    /// The runtime's, which catches the signals; tests leave the default, which catches none.
    var interrupts = Interrupts()

    func run(query: String, pages: Int) async -> ExitStatus {
        // Exactly the pages asked for: no page past them is fetched in the background.
        session.context.settings.prefetch = false
        return await run { [session] in await session.searchController.search(query, pages: pages) }
    }

    /// `movies episodes IMDBID|QUERY [--season S]`: one season's episodes. A QUERY means the first series
    /// a search for it finds.
    func run(episodesOf target: String, season: Int, lines: LineFormat?) async -> ExitStatus {
        await run { [session] in
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
                    session.console.error(Self.nothingToList(list))
                    return .failure
                }
                guard let lines else {
                    return await session.listSeason(of: seriesID, season: season)
                }
                for episode in list.episodes { session.console.out(lines.line(EpisodeOutput(episode, in: list))) }
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

    /// Runs `work` in a task Ctrl-C cancels: `.interrupted` when it was, else what `work` returned.
    func run(_ work: @escaping @MainActor () async -> ExitStatus) async -> ExitStatus {
        session.context.isOneShot = true
        let (status, cancelled) = await interrupts.run(work)
        if cancelled {
            session.console.err("Interrupted.")
            return .interrupted
        }
        return status
    }
}
