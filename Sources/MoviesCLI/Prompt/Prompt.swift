import Foundation
import OMDbKit
import LineEditing

/// The interactive loop: a line at a time, each command in a task Ctrl-C can cancel.
@MainActor
struct Prompt {
    enum Input {
        /// A person at a terminal, through the line editor, which draws the prompt itself.
        case editor(TerminalLineReader)
        /// A pipe or a file (or a terminal without the editor), as the lines come.
        case lines(LineReader)
    }

    let console: Console
    let input: Input
    /// The runtime's, which catches the signals; tests leave the default, which catches none.
    var interrupts = Interrupts()

    /// Reads lines and runs them in `session` until `quit` or the end of input.
    func run(_ session: Session) async {
        switch input {
        case .editor(let reader):
            interrupts.onEveryInterrupt { reader.interrupted() }
            await loop(session, writesPrompt: false) { await reader.nextLine() }
        case .lines(let source):
            await loop(session, writesPrompt: console.isInteractive) { await source.next() }
        }
    }

    /// Asks a question and reads its answer, the next line typed or read (`nil`: none), over a pipe too.
    var ask: (String) async -> String? {
        switch input {
        case .editor(let reader):
            return { await reader.nextLine(answering: $0) }
        case .lines(let source):
            let console = self.console
            return { question in
                console.writeErr(question)
                let answer = await source.next()
                // Read from a pipe, the answer was not echoed: it ends the question's line.
                if !console.isInteractive { console.writeErr(safe(answer ?? "") + "\n") }
                return answer
            }
        }
    }

    /// `writesPrompt`: lines typed at a terminal without the editor, which draws the prompt itself otherwise.
    private func loop(_ session: Session, writesPrompt: Bool, next: () async -> String?) async {
        let console = self.console
        let interrupts = self.interrupts
        interrupts.whenIdle {
            console.writeErr("\n" + console.errorStyle.dim("(Ctrl-C: type quit or press Ctrl-D to leave)") + "\n")
            if writesPrompt { console.writeErr(Prompt.text) }
            interrupts.carryOn()
        }
        if console.isInteractive { console.err(console.errorStyle.dim("Type a title to search, help for the commands.")) }
        if writesPrompt { console.writeErr(Prompt.text) }
        while let line = await next() {
            let command = Command(parsing: line)
            let (status, _) = await interrupts.run { await session.handle(command) }
            interrupts.carryOn()
            guard status != nil else { return }
            if writesPrompt { console.writeErr(Prompt.text) }
        }
        // The editor has already moved to a fresh line.
        if writesPrompt { console.writeErr("\n") }
    }

    nonisolated static let text = "movies> "
}
