import Foundation

/// A config file (`storyrun.json`): default options, user parameters and
/// named profiles, each key with the place it was written.
///
/// ```json
/// {
///   "paths": ["Stories/"],
///   "tags": "not @wip",
///   "parameters": { "base-url": "http://localhost:8080" },
///   "profiles": {
///     "ci": { "strict": true, "jobs": 4, "junit": "reports/stories.xml",
///             "parameters": { "base-url": "https://staging.example.com" } }
///   }
/// }
/// ```
struct ConfigFile {
    /// The name read from the current folder when `--config` is not given.
    static let defaultName = "storyrun.json"

    /// How a key's value becomes command-line arguments.
    enum Kind {
        /// `true` adds `--KEY`; `false` leaves it out.
        case flag
        /// A string or number: `--KEY VALUE`.
        case value
        /// A string or a list of strings: `--KEY VALUE` for each.
        case values
        /// A string or a list of strings: paths to run.
        case paths
        /// An object of strings, numbers or booleans: `-D KEY=VALUE` each.
        case parameters
    }

    /// The keys a config file (or a profile) may have, as the options they
    /// stand for: `paths`, and each option whose declaration has a key.
    static let keys: [String: Kind] = {
        var keys: [String: Kind] = ["paths": .paths]
        for declaration in Options.declarations {
            if let config = declaration.config { keys[config.key] = config.kind }
        }
        return keys
    }()

    /// One key of the file, where it was written.
    struct Entry {
        var key: String
        var value: LocatedJSON.Element
        var location: SourceLocation
        var sourceLine: String?
    }

    /// The file as given (for messages).
    var path: String
    /// The top-level keys but `profiles`: the defaults.
    var defaults: [Entry]
    /// Each profile's keys, by profile name, in the order written.
    var profiles: [(name: String, location: SourceLocation, entries: [Entry])]
    /// Where `profiles` was written, or the top of the file.
    var profilesLocation: SourceLocation
    private var lines: [Substring]

    /// Reads and checks a config file: JSON, an object at the top, known
    /// keys with values of the right kind.
    /// - Throws: A ``Diagnostic`` at the file's line and column.
    static func read(at path: String) throws(Diagnostic) -> ConfigFile {
        let bytes: [UInt8]
        switch RegularFile.read(at: path) {
        case .success(let data): bytes = data
        case .failure(.notRegular(let kind)):
            throw Diagnostic(at: nil, problem: "the config file \(path) is \(kind), not a regular file", help: "name a JSON file")
        case .failure:
            throw Diagnostic(at: nil, problem: "cannot read the config file \(path)", help: "check the path given to --config")
        }
        // A byte order mark, which some editors write, is not JSON but says
        // nothing: left out, as JSON readers may (RFC 8259).
        let hasMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        let text = String(decoding: hasMark ? bytes.dropFirst(3) : bytes[...], as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func line(_ number: Int) -> String? {
            number >= 1 && number <= lines.count ? String(lines[number - 1].trimmingSuffix("\r")) : nil
        }
        let root: LocatedJSON.Element
        do {
            root = try LocatedJSON.parse(text)
        } catch {
            throw Diagnostic(
                at: SourceLocation(file: path, line: error.line, column: error.column),
                problem: "the config file is not JSON: \(error.problem)", help: "a config file is one JSON object, e.g. {\"strict\": true}",
                sourceLine: line(error.line))
        }
        guard case .object(let members) = root.value else {
            throw Diagnostic(
                at: SourceLocation(file: path, line: root.line, column: root.column),
                problem: "a config file is a JSON object, not \(root.value.kind)", help: "write {\"paths\": [\"Stories/\"]}",
                sourceLine: line(root.line))
        }
        var file = ConfigFile(
            path: path, defaults: [], profiles: [], profilesLocation: SourceLocation(file: path, line: 1), lines: lines)
        file.defaults = try file.entries(members, profile: nil)
        return file
    }

    private mutating func entries(_ members: [LocatedJSON.Member], profile name: String?) throws(Diagnostic) -> [Entry] {
        let allowsProfiles = name == nil
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        for member in members {
            let location = SourceLocation(file: path, line: member.line, column: member.column)
            // Which one would win is a guess (JSON readers differ): said,
            // not guessed (before, "strict" kept its first value and "tags"
            // its last).
            if let first = seen.updateValue(member.line, forKey: member.key) {
                throw Diagnostic(
                    at: location, problem: "\"\(member.key)\" is given twice\(name.map { " in the profile \"\($0)\"" } ?? ""), first on line \(first)",
                    help: "keep one of them", sourceLine: sourceLine(member.line))
            }
            if member.key == "profiles" && allowsProfiles {
                profilesLocation = location
                guard case .object(let named) = member.value.value else {
                    throw problem(at: member.value, "\"profiles\" is an object of profiles, not \(member.value.value.kind)",
                        help: "write \"profiles\": {\"ci\": {\"strict\": true}}")
                }
                for profile in named {
                    guard case .object(let keys) = profile.value.value else {
                        throw problem(at: profile.value, "the profile \"\(profile.key)\" is an object of options, not \(profile.value.value.kind)",
                            help: "write \"\(profile.key)\": {\"strict\": true}")
                    }
                    let place = SourceLocation(file: path, line: profile.line, column: profile.column)
                    profiles.append((profile.key, place, try self.entries(keys, profile: profile.key)))
                }
                continue
            }
            guard let kind = Self.keys[member.key] else {
                let known = Self.keys.keys.sorted() + (allowsProfiles ? ["profiles"] : [])
                let guess = known.min { member.key.editDistance(to: $0) < member.key.editDistance(to: $1) }
                let suggestion = guess.flatMap { member.key.editDistance(to: $0) <= max(2, member.key.count / 3) ? "did you mean \"\($0)\"? " : nil }
                let where_ = name.map { member.key == "profiles" ? " in the profile \"\($0)\" (profiles do not nest)" : " in the profile \"\($0)\"" } ?? ""
                throw Diagnostic(
                    at: location, problem: "unknown key \"\(member.key)\"\(where_)",
                    help: (suggestion ?? "") + "the keys are: " + known.joined(separator: ", "), sourceLine: sourceLine(member.line))
            }
            try check(member.value, kind: kind, key: member.key)
            entries.append(Entry(key: member.key, value: member.value, location: location, sourceLine: sourceLine(member.line)))
        }
        return entries
    }

    private func check(_ element: LocatedJSON.Element, kind: Kind, key: String) throws(Diagnostic) {
        switch (kind, element.value) {
        case (.flag, .bool), (.value, .string), (.value, .number), (.values, .string), (.paths, .string): return
        case (.values, .array(let items)), (.paths, .array(let items)):
            for item in items {
                guard case .string = item.value else {
                    throw problem(at: item, "\"\(key)\" lists strings, not \(item.value.kind)", help: "write \"\(key)\": [\"…\"]")
                }
            }
        case (.parameters, .object(let members)):
            for member in members {
                switch member.value.value {
                case .string, .number, .bool: continue
                default:
                    throw problem(
                        at: member.value, "the parameter \"\(member.key)\" is \(member.value.value.kind); a parameter is a string, a number or true/false",
                        help: "write \"\(member.key)\": \"…\"")
                }
            }
        case (.flag, _): throw problem(at: element, "\"\(key)\" is true or false, not \(element.value.kind)", help: "write \"\(key)\": true")
        case (.parameters, _):
            throw problem(at: element, "\"parameters\" is an object, not \(element.value.kind)", help: "write \"parameters\": {\"base-url\": \"http://localhost:8080\"}")
        default:
            throw problem(at: element, "\"\(key)\" is a string or a number, not \(element.value.kind)", help: "write \"\(key)\": \"…\"")
        }
    }

    private func problem(at element: LocatedJSON.Element, _ problem: String, help: String) -> Diagnostic {
        Diagnostic(
            at: SourceLocation(file: path, line: element.line, column: element.column), problem: problem, help: help,
            sourceLine: sourceLine(element.line))
    }

    private func sourceLine(_ number: Int) -> String? {
        number >= 1 && number <= lines.count ? String(lines[number - 1].trimmingSuffix("\r")) : nil
    }

    /// The defaults with the profiles applied in order: a profile's key
    /// replaces the default's, except `parameters`, which are merged key by key.
    /// - Throws: A ``Diagnostic`` for a profile the file does not have.
    func entries(profiles names: [String]) throws(Diagnostic) -> [Entry] {
        var chosen = defaults
        for name in names {
            guard let profile = profiles.first(where: { $0.name == name }) else {
                let known = profiles.map(\.name)
                let guess = known.min { name.editDistance(to: $0) < name.editDistance(to: $1) }
                let suggestion = guess.flatMap { name.editDistance(to: $0) <= max(2, name.count / 3) ? "did you mean \"\($0)\"? " : nil } ?? ""
                throw Diagnostic(
                    at: profilesLocation, problem: "--profile \(name): \(path) has no profile \"\(name)\"",
                    help: known.isEmpty
                        ? "add \"profiles\": {\"\(name)\": {…}} to \(path)"
                        : suggestion + "its profiles are: " + known.joined(separator: ", "),
                    sourceLine: profilesLocation.line > 1 || !profiles.isEmpty ? sourceLine(profilesLocation.line) : nil)
            }
            for entry in profile.entries {
                if entry.key == "parameters" {
                    chosen.append(entry)
                } else {
                    chosen.removeAll { $0.key == entry.key }
                    chosen.append(entry)
                }
            }
        }
        return chosen
    }

    /// The command-line arguments a key stands for.
    static func arguments(for entry: Entry) -> [String] {
        let kind = keys[entry.key] ?? .value
        func text(_ value: LocatedJSON) -> String {
            switch value {
            case .string(let text), .number(let text): text
            case .bool(let flag): flag ? "true" : "false"
            default: ""
            }
        }
        func list(_ value: LocatedJSON) -> [String] {
            if case .array(let items) = value { return items.map { text($0.value) } }
            return [text(value)]
        }
        switch kind {
        case .flag: return entry.value.value == .bool(true) ? ["--\(entry.key)"] : []
        case .value: return ["--\(entry.key)", text(entry.value.value)]
        case .values: return list(entry.value.value).flatMap { ["--\(entry.key)", $0] }
        case .paths: return ["--"] + list(entry.value.value)
        case .parameters:
            guard case .object(let members) = entry.value.value else { return [] }
            return members.flatMap { ["-D", "\($0.key)=\(text($0.value.value))"] }
        }
    }
}

extension Substring {
    fileprivate func trimmingSuffix(_ suffix: Character) -> Substring {
        last == suffix ? dropLast() : self
    }
}
