import Foundation
import OMDbKit
import LineEditing

/// `movies search …`, `movies show …`: one command, then exit with its outcome.
@MainActor
struct OneShot {
    let session: Session
    let console: Console
    /// The runtime's, which catches the signals; tests leave the default, which catches none.
    var interrupts = Interrupts()

    func run(query: String, pages: Int) async -> ExitStatus {
        // Exactly the pages asked for: no page past them is fetched in the background.
        session.prefetchesNextPage = false
        return await run { [session] in await session.search(query, pages: pages) }
    }

    /// Runs `work` in a task Ctrl-C cancels: `.interrupted` when it was, else what `work` returned.
    func run(_ work: @escaping @MainActor () async -> ExitStatus) async -> ExitStatus {
        session.context.isOneShot = true
        let interrupts = self.interrupts
        interrupts.begin()
        let task = Task { @MainActor in await work() }
        interrupts.running(task)
        let status = await task.value
        interrupts.finished()
        if task.isCancelled {
            console.err("Interrupted.")
            return .interrupted
        }
        return status
    }
}
