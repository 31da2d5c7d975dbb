/// A status line at the bottom of a terminal, rewritten in place with `\r`;
/// whole lines of the report are written above it.
///
/// Used only when standard output is a terminal, so it never reaches a
/// file, a pipe or a golden.
final class TerminalLine {
    private let writePartial: (String) -> Void
    private let writeLine: (String) -> Void
    private var shown = ""

    /// Creates a status line.
    /// - Parameters:
    ///   - writePartial: Writes text without a line end, straight away.
    ///   - writeLine: Writes a whole line.
    init(writePartial: @escaping (String) -> Void, writeLine: @escaping (String) -> Void) {
        self.writePartial = writePartial
        self.writeLine = writeLine
    }

    /// The ANSI sequence that returns to the line's start and erases it.
    static let erase = "\r\u{1B}[2K"

    /// Replaces the status line's text.
    func show(_ text: String) {
        guard text != shown else { return }
        writePartial(Self.erase + text)
        shown = text
    }

    /// Erases the status line.
    func clear() {
        guard !shown.isEmpty else { return }
        writePartial(Self.erase)
        shown = ""
    }

    /// Writes a whole line above the status line, which stays at the bottom.
    func write(_ line: String) {
        let text = shown
        clear()
        writeLine(line)
        show(text)
    }
}
