/// Text on its way to a terminal, with the control characters a story file
/// could hold made visible, so a story cannot drive the terminal (move the
/// cursor, clear the screen, set the window title, write hyperlinks).
///
/// storyrun's own sequences stay: its colours (``TextStyle/Color``, each
/// `ESC[<code>m`, and the reset `ESC[0m`) unless colour is off, and the
/// live status line's erase (`CR ESC[2K`) at the start of the text. Any
/// other sequence (a story's conceal `ESC[8m` hid every later line, even
/// with `--no-color`), everything else below a space (but tab and line
/// feed), DEL and the C1 controls become visible: ESC as `␛`, the other
/// C0 controls and DEL as their control pictures (`␇`, `␡`), C1 as
/// `\u{9B}`.
enum TerminalText {
    /// The text, safe to write to a terminal.
    /// - Parameter allowsColour: Whether storyrun's own colours stay; false
    ///   where it writes none (`--no-color`, `NO_COLOR`, not a terminal):
    ///   then every escape sequence shows.
    static func visible(_ text: String, allowsColour: Bool = true) -> String {
        guard needsEscaping(text) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if allowsColour, let length = allowedSequence(scalars, at: index) {
                out.append(contentsOf: scalars[index..<index + length])
                index += length
                continue
            }
            switch scalar.value {
            case 0x09, 0x0A: out.append(scalar)
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out.append("\u{2421}")
            case 0x80..<0xA0: out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: out.append(scalar)
            }
            index += 1
        }
        return String(out)
    }

    /// Whether any byte of the text is a control character (a quick scan
    /// over UTF-8: a C1 control starts with the byte 0xC2).
    private static func needsEscaping(_ text: String) -> Bool {
        text.utf8.contains { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A) || $0 == 0x7F || $0 == 0xC2 }
    }

    /// The length of one of storyrun's own sequences at `index`: one of its
    /// colours `ESC [ code m` (``ownColourCodes``), or the erase
    /// `CR ESC [ 2 K` at the start of the text.
    private static func allowedSequence(_ scalars: [Unicode.Scalar], at index: Int) -> Int? {
        var start = index
        if scalars[index] == "\r" {
            guard index == 0, index + 1 < scalars.count, scalars[index + 1] == "\u{1B}" else { return nil }
            start += 1
        }
        guard scalars[start] == "\u{1B}", start + 1 < scalars.count, scalars[start + 1] == "[" else { return nil }
        var end = start + 2
        var code = ""
        while end < scalars.count, ("0"..."9").contains(scalars[end]), code.count < 3 {
            code.unicodeScalars.append(scalars[end])
            end += 1
        }
        guard end < scalars.count else { return nil }
        let isColour = scalars[end] == "m" && scalars[index] != "\r" && ownColourCodes.contains(code)
        let isErase = scalars[end] == "K" && scalars[index] == "\r" && code == "2"
        return isColour || isErase ? end + 1 - index : nil
    }

    /// The codes of storyrun's own colours, and of the reset after each.
    private static let ownColourCodes: Set<String> = Set(TextStyle.Color.allCases.map(\.ansiCode) + ["0"])
}
