import Foundation
import Testing
import TestSupport

/// The scripts `movies completions SHELL` prints, loaded into real bash, zsh and fish (started
/// as processes): each loads without error and completes `--ty` to `--type`. A shell that is
/// not installed skips its test with the reason (`.ci/run` installs them from Debian).
@Suite struct CompletionScriptTests {
    static func shell(_ name: String) -> URL? {
        ["/usr/bin", "/bin", "/usr/local/bin"].map { URL(fileURLWithPath: "\($0)/\(name)") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `script` in `shell` with `$MOVIES` set to the built binary, in a folder holding `posters-a/`.
    func run(_ shell: URL, _ arguments: [String]) async throws -> MoviesProcess.Outcome {
        try await withTemporaryFolder { folder in
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("posters-a"), withIntermediateDirectories: true)
            let outcome = try await MoviesProcess.run(arguments, directory: folder,
                                                      environment: ["MOVIES": MoviesProcess.executable.path], executable: shell)
            #expect(outcome.status == 0, "\(shell.lastPathComponent) failed: \(outcome.stderr)")
            #expect(outcome.stderr.isEmpty, "\(shell.lastPathComponent) complained: \(outcome.stderr)")
            return outcome
        }
    }

    @Test(.enabled(if: shell("bash") != nil, "bash is not installed"))
    func bashCompletesOptionsValuesFoldersAndCommands() async throws {
        let script = #"""
        source <("$MOVIES" completions bash) || exit 1
        complete -p movies >/dev/null || exit 1
        ask() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _movies; echo "${COMPREPLY[*]}"; }
        ask movies --ty
        ask movies --type ''
        ask movies --plot = f
        ask movies --posters post
        ask movies ''
        ask movies completions ''
        """#
        let outcome = try await run(try #require(Self.shell("bash")), ["--norc", "--noprofile", "-c", script])
        #expect(outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix(6) == [
            "--type", "movie series episode any", "full", "posters-a",
            // Issue 18: `show` is a command, so the shell offers it.
            "search show episodes catalogue quota cache completions manpage", "bash zsh fish",
        ])
    }

    @Test(.enabled(if: shell("fish") != nil, "fish is not installed"))
    func fishCompletesOptionsValuesFoldersAndCommands() async throws {
        let script = #"""
        "$MOVIES" completions fish | source; or exit 1
        complete -C 'movies --ty'; echo ==
        complete -C 'movies --type '; echo ==
        complete -C 'movies --posters post'; echo ==
        complete -C 'movies '
        """#
        let outcome = try await run(try #require(Self.shell("fish")), ["--no-config", "-c", script])
        let parts = outcome.stdout.components(separatedBy: "==\n").map { $0.split(separator: "\n").map { $0.split(separator: "\t")[0] } }
        #expect(parts.count == 4)
        #expect(parts.first == ["--type"])
        #expect(parts.dropFirst().first.map(Set.init) == ["movie", "series", "episode", "any"])
        #expect(parts.dropFirst(2).first == ["posters-a/"])
        #expect(parts.last.map(Set.init) == ["search", "show", "episodes", "catalogue", "quota", "cache", "completions", "manpage"])
    }

    @Test(.enabled(if: shell("zsh") != nil, "zsh is not installed"))
    func zshLoadsTheScriptWithCompinit() async throws {
        let script = #"""
        autoload -U compinit && compinit -u -d "$PWD/.zcompdump" || exit 1
        source <("$MOVIES" completions zsh) || exit 1
        print -r -- $_comps[movies]
        """#
        let outcome = try await run(try #require(Self.shell("zsh")), ["-f", "-c", script])
        #expect(outcome.stdout == "_movies\n")
    }

    /// zsh completes only inside its line editor, so this types `movies --ty<Tab>` into an
    /// interactive zsh on a pseudo-terminal (zsh's own zpty) and reads until the line shows `--type`
    /// followed by something other than a letter of a longer name.
    @Test(.enabled(if: shell("zsh") != nil, "zsh is not installed"))
    func zshCompletesTyToType() async throws {
        let script = #"""
        zmodload zsh/zpty || exit 1
        "$MOVIES" completions zsh > "$PWD/_movies"
        zpty z zsh -f -i
        zpty -w z "PS1='> '; autoload -U compinit; compinit -u -d '$PWD/.zcompdump'; source '$PWD/_movies'"
        zpty -w -n z $'movies --ty\t'
        zpty -r z seen '*movies --type[^[:alnum:]_-]*' && print completed
        zpty -d z
        """#
        // If the completion never comes, the read waits: the runner kills zsh after 60 s and this fails.
        let outcome = try await run(try #require(Self.shell("zsh")), ["-f", "-c", script])
        #expect(outcome.stdout.hasSuffix("completed\n"))
    }
}
