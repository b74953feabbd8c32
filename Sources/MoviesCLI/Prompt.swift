import Foundation
import OMDbKit

/// The interactive loop: a line at a time, each command in a task Ctrl-C can cancel.
@MainActor
struct Prompt {
    let session: Session
    let console: Console
    /// The runtime's, which catches the signals; tests leave the default, which catches none.
    var interrupts = Interrupts()

    /// Lines from a pipe or a file (or a terminal without the editor), as they come.
    func run(lines: AsyncStream<String>) async {
        let source = LineSource(lines)
        let console = self.console
        await loop(drawsPrompt: false) {
            await source.next()
        } ask: { question in
            console.writeErr(question)
            return await source.next()
        }
    }

    /// Lines from a person at a terminal, through the line editor, which draws the prompt itself.
    func run(reader: TerminalLineReader) async {
        interrupts.onEveryInterrupt { reader.interrupted() }
        await loop(drawsPrompt: true) { await reader.nextLine() } ask: { await reader.answer($0) }
    }

    /// - Parameter ask: asks a question and reads its answer (`nil`: none).
    private func loop(drawsPrompt: Bool, next: @escaping () async -> String?, ask: @escaping (String) async -> String?) async {
        let console = self.console
        let interrupts = self.interrupts
        interrupts.whenIdle {
            console.writeErr("\n" + console.errorStyle.dim("(Ctrl-C: type quit or press Ctrl-D to leave)") + "\n")
            if console.isInteractive, !drawsPrompt { console.writeErr(Prompt.text) }
        }
        if console.isInteractive { console.err(console.errorStyle.dim("Type a title to search, help for the commands.")) }
        if console.isInteractive {
            // `save` asks before it replaces a file: the answer is the next line typed, read
            // while the loop waits for that command, so it is never taken for a command.
            session.confirm = { question in
                let answer = await ask(question)?.trimmingCharacters(in: .whitespaces).lowercased()
                return answer == "y" || answer == "yes"
            }
        }
        if !drawsPrompt { showPrompt() }
        while let line = await next() {
            let command = Command(parsing: line)
            let session = self.session
            // Busy before the task exists: a Ctrl-C from here on cancels this command.
            interrupts.begin()
            let task = Task { @MainActor in await session.handle(command) }
            interrupts.running(task)
            let keepGoing = await task.value
            interrupts.finished()
            guard keepGoing else { return }
            if !drawsPrompt { showPrompt() }
        }
        // The editor has already moved to a fresh line.
        if console.isInteractive, !drawsPrompt { console.writeErr("\n") }
    }

    nonisolated static let text = "movies> "

    private func showPrompt() {
        if console.isInteractive { console.writeErr(Prompt.text) }
    }
}

/// `movies search …`: one search, then `--pages - 1` more pages.
@MainActor
struct OneShot {
    let session: Session
    let console: Console
    /// The runtime's, which catches the signals; tests leave the default, which catches none.
    var interrupts = Interrupts()

    func run(query: String, pages: Int) async -> Int32 {
        let session = self.session
        // Exactly the pages asked for: no page past them is fetched in the background.
        session.prefetchesNextPage = false
        return await run {
            await session.search(query, pages: pages)
        }
    }

    /// Runs `work` in a task Ctrl-C cancels; the exit status says how it went.
    func run(_ work: @escaping @MainActor () async -> Void) async -> Int32 {
        let interrupts = self.interrupts
        interrupts.begin()
        let task = Task { @MainActor () -> Bool in
            await work()
            return true
        }
        interrupts.running(task)
        _ = await task.value
        interrupts.finished()
        if task.isCancelled {
            console.err("Interrupted.")
            return Movies.Status.interrupted
        }
        return session.hadFailure ? Movies.Status.failure : Movies.Status.success
    }
}
