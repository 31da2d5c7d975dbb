/// How terminal text is coloured.
public enum TextStyle: Sendable {
    /// No colour: `NO_COLOR` is set, or output is not a terminal.
    case plain
    /// ANSI escape codes, for a terminal.
    case ansi
    /// `<red>…</red>` tags, so golden files can show colour.
    case tags

    /// A colour a piece of text can have.
    public enum Color: String, Sendable, CaseIterable {
        case red, green, yellow, cyan, gray, bold
    }

    /// Returns the text in a colour.
    public func paint(_ text: String, _ color: Color) -> String {
        switch self {
        case .plain: text
        case .tags: "<\(color.rawValue)>\(text)</\(color.rawValue)>"
        case .ansi: "\u{1B}[\(color.ansiCode)m\(text)\u{1B}[0m"
        }
    }

    /// The colour that shows a step status.
    static func color(for status: StepStatus) -> Color {
        switch status {
        case .passed: .green
        case .failed, .ambiguous: .red
        case .undefined, .pending: .yellow
        case .skipped: .cyan
        }
    }

    /// The colour that shows a story status.
    static func color(for status: StoryStatus) -> Color {
        switch status {
        case .passed: .green
        case .failed: .red
        case .undefined, .pending: .yellow
        case .skipped: .cyan
        }
    }
}

extension TextStyle.Color {
    var ansiCode: String {
        switch self {
        case .red: "31"
        case .green: "32"
        case .yellow: "33"
        case .cyan: "36"
        case .gray: "90"
        case .bold: "1"
        }
    }
}
