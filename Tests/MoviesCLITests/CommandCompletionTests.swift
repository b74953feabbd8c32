import Testing
@testable import LineEditing
@testable import MoviesCLI

/// The prompt's completer (commands, their values, folders) in the line editor, without a terminal.
@Suite struct CommandCompletionTests {
    /// Feeds `bytes` (as a terminal sends them) and returns the editor and the last outcome.
    private func type(_ bytes: String, completer: Completer = CommandCompletion.completer { _ in [] }) -> (LineEditor, LineEditor.Outcome?) {
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
}
