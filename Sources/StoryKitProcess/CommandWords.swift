import Foundation

/// A command line split into words as a shell splits them (spaces, `'…'`,
/// `"…"`, backslashes), without running a shell, and the program it names.
enum CommandWords {
    /// Splits a command line into words, replacing `$NAME` and `${NAME}`
    /// (outside single quotes) by the command's environment variables.
    /// - Throws: ``CommandError`` for an unclosed quote.
    static func split(_ line: String, environment: [String: String] = [:]) throws -> [String] {
        try pieces(line, environment: environment).map(CommandWord.joined)
    }

    /// Splits a command line into words as ``split(_:environment:)`` does,
    /// and fills each `{name}` (quoted or not) with what `value(name)`
    /// gives, after the split: a value is part of one word, whatever
    /// spaces, quotes or `$` it holds, and is never expanded again. A
    /// `{name}` whose value is nil stays as written.
    /// - Throws: ``CommandError`` for an unclosed quote.
    static func pieces(
        _ line: String, environment: [String: String], value: (String) -> String? = { _ in nil }
    ) throws -> [CommandWord] {
        var words: [CommandWord] = []
        var word = CommandWord()
        var inWord = false
        var quote: Character?
        var escaped = false
        let characters = Array(line)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == "$", !escaped, quote != "'", index < characters.count,
                characters[index] == "{" || characters[index] == "_" || characters[index].isLetter
            {
                word.append(environment[try variableName(characters, at: &index, line: line)] ?? "")
                inWord = true
                continue
            }
            if character == "{", !escaped, let (name, close) = placeholder(characters, at: index), let filled = value(name) {
                word.pieces.append(.value(name: name, filled))
                index = close + 1
                inWord = true
                continue
            }
            if escaped {
                word.append(character)
                escaped = false
            } else if character == "\\", quote != "'" {
                escaped = true
                inWord = true
            } else if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = CommandWord()
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if let quote { throw CommandError("the command line `\(line)` has an unclosed \(quote)") }
        if inWord || escaped { words.append(word) }
        guard !words.isEmpty else { throw CommandError("the command line is empty") }
        return words
    }

    /// Reads the name of a variable after a `$` (`NAME` or `{NAME}`).
    private static func variableName(_ characters: [Character], at index: inout Int, line: String) throws -> String {
        if characters[index] == "{" {
            guard let close = characters[index...].firstIndex(of: "}") else {
                throw CommandError("the command line `\(line)` has an unclosed ${")
            }
            defer { index = close + 1 }
            return String(characters[(index + 1)..<close])
        }
        var name = ""
        while index < characters.count, characters[index] == "_" || characters[index].isLetter || characters[index].isNumber {
            name.append(characters[index])
            index += 1
        }
        return name
    }

    /// The name of a `{name}` placeholder whose `{` is just before `index`,
    /// and where its `}` is; nil when there is none (as
    /// ``Placeholders/expand(_:in:)`` reads them).
    private static func placeholder(_ characters: [Character], at index: Int) -> (String, Int)? {
        guard let close = characters[index...].firstIndex(of: "}") else { return nil }
        let name = characters[index..<close]
        guard !name.isEmpty, !name.contains("\""), !name.contains("{") else { return nil }
        return (String(name), close)
    }

    /// Finds the program a command names: a path with a `/` (relative to the
    /// directory storyrun runs in, so `.build/debug/todo` names a product of
    /// the package), else a product in `.build/debug/`, else `$PATH`.
    /// - Throws: ``CommandError`` naming where it looked.
    static func resolve(_ name: String, searchPath: String?, packageDirectory: String) throws -> String {
        let manager = FileManager.default
        if name.contains("/") {
            let path = name.hasPrefix("/") ? name : packageDirectory + "/" + name
            guard manager.isExecutableFile(atPath: path) else {
                throw CommandError("`\(name)` is not an executable file (looked at \(path))")
            }
            return path
        }
        let product = packageDirectory + "/.build/debug/" + name
        let folders = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        for candidate in [product] + folders.map({ $0 + "/" + name }) {
            var isFolder: ObjCBool = false
            if manager.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue,
                manager.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        throw CommandError(
            "command not found: `\(name)` (looked in \(packageDirectory)/.build/debug and in $PATH: \(folders.joined(separator: ":")))")
    }
}
