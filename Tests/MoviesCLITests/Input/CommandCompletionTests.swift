import Foundation
import Testing
import TestSupport
@testable import LineEditing
@testable import MoviesCLI

/// The prompt's completer (commands, their values, folders) in the line editor, without a terminal.
@Suite struct CommandCompletionTests {
    /// Feeds `bytes` (as a terminal sends them) and returns the editor and the last outcome.
    private func type(_ bytes: String, completer: @escaping Completer = CommandCompletion.completer { _ in [] }) -> (LineEditor, LineEditor.Outcome?) {
        var decoder = KeyDecoder()
        var editor = LineEditor(completer: completer)
        var last: LineEditor.Outcome?
        for key in decoder.feed(Array(bytes.utf8)) + decoder.flush() { last = editor.handle(key) }
        return (editor, last)
    }

    @Test func tabCompletesCommandsValuesAndFolders() {
        let folders = CommandCompletion.completer { directory in directory == "" ? ["shots", "shorts", "other", ".hidden"] : directory == "shots/" ? ["inner"] : [] }
        #expect(type("ty\t").0.buffer.text == "type ")
        #expect(type("type mo\t").0.buffer.text == "type movie ")
        #expect(type("plot f\t").0.buffer.text == "plot full ")
        #expect(type("posters sho\t", completer: folders).0.buffer.text == "posters sho")
        #expect(type("posters sho\t", completer: folders).1 == .list(["shots/", "shorts/"]))
        #expect(type("posters shot\t", completer: folders).0.buffer.text == "posters shots/")
        #expect(type("posters shots/\t", completer: folders).0.buffer.text == "posters shots/inner/")
        #expect(type("s\t").1 == .list(["save", "save!", "search", "show"]))
        #expect(type("alien\t").1 == .nothing)
    }

    /// After `save`, Tab completes folders and the files save writes (.json, .csv, .md) on disk,
    /// as it completes folders after `poster LIST`; a completed file name takes its space.
    @Test func tabAfterSaveCompletesFoldersAndTheFilesItWrites() throws {
        let base = try makeTemporaryFolder()
        defer { removeFolder(base) }
        let shots = base.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots.appendingPathComponent("inner"), withIntermediateDirectories: true)
        for name in ["old.csv", "notes.txt", "movies.json"] { try Data().write(to: shots.appendingPathComponent(name)) }
        let disk = CommandCompletion.fileSystem(base: base, home: nil)
        #expect(type("save sh\t", completer: disk).0.buffer.text == "save shots/")
        #expect(type("save shots/\t", completer: disk).1 == .list(["inner/", "movies.json", "old.csv"]))
        #expect(type("save shots/o\t", completer: disk).0.buffer.text == "save shots/old.csv ")
        #expect(type("save! shots/m\t", completer: disk).0.buffer.text == "save! shots/movies.json ")
        #expect(type("help sa\t").0.buffer.text == "help save ")
    }
}
