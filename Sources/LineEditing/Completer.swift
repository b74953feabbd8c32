import Foundation

/// What Tab offers: the tool completes the word left of the cursor; the editor inserts or lists the choices.
public struct Completer: Sendable {
    /// Where that word starts (in characters), and its full replacements, each with the space or slash that follows.
    public typealias Complete = @Sendable (_ before: String) -> (start: Int, choices: [String])

    let complete: Complete

    /// - Parameter complete: the tool's completions; by default none.
    public init(_ complete: @escaping Complete = { _ in (0, []) }) {
        self.complete = complete
    }

    /// A choice as listed under the line, as shells list paths: the last component (a folder with
    /// its slash), a word without its space.
    static func shown(_ choice: String) -> String {
        let word = choice.hasSuffix(" ") ? choice.dropLast() : Substring(choice)
        let isFolder = word.hasSuffix("/")
        let name = (isFolder ? word.dropLast() : word).split(separator: "/").last.map(String.init) ?? ""
        return isFolder ? name + "/" : name
    }
}
