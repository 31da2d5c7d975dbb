extension Diagnostic {
    /// Renders the diagnostic the way compilers do: `path:line:col: error:
    /// problem`, the source line with a caret, then `help:` and notes.
    public func rendered(style: TextStyle = .plain) -> String {
        let color: TextStyle.Color = severity == .error ? .red : severity == .warning ? .yellow : .cyan
        var lines: [String] = []
        let place = location.map { "\($0.displayPath):\($0.line)\($0.column > 0 ? ":\($0.column)" : ""): " } ?? "\(Options.executableName): "
        lines.append(place + style.paint("\(severity.rawValue):", color) + " " + problem)
        if let sourceLine {
            lines.append("    " + sourceLine)
            if let column = location?.column, column > 0 {
                let indent = sourceLine.prefix(column - 1).map { $0 == "\t" ? "\t" : " " }.joined()
                lines.append("    " + indent + style.paint("^", color))
            }
        }
        if let help { lines.append("  " + style.paint("help:", .cyan) + " " + help) }
        for note in notes {
            let where_ = note.location.map { "\($0.displayPath):\($0.line): " } ?? ""
            lines.append("  " + style.paint("note:", .gray) + " " + where_ + note.message)
        }
        return lines.joined(separator: "\n")
    }
}
