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
        var value: JSONValue
        /// The value's path in the file, for the text of its numbers.
        var path: JSONPlaces.Path
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
    /// Where each value and key of the file was written.
    private var places: JSONPlaces
    /// The file's text, for numbers as they were written.
    private var utf8: [UInt8]

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
        var places = JSONPlaces()
        let root: JSONValue
        do {
            root = try JSONValue(parsing: text, places: &places)
        } catch {
            throw Diagnostic(
                at: SourceLocation(file: path, line: error.line, column: error.column),
                problem: "the config file is not JSON: \(error.problem)", help: "a config file is one JSON object, e.g. {\"strict\": true}",
                sourceLine: line(error.line))
        }
        guard case .object(let members) = root else {
            let place = places.value([])
            throw Diagnostic(
                at: SourceLocation(file: path, line: place.line, column: place.column),
                problem: "a config file is a JSON object, not \(root.kind)", help: "write {\"paths\": [\"Stories/\"]}",
                sourceLine: line(place.line))
        }
        var file = ConfigFile(
            path: path, defaults: [], profiles: [], profilesLocation: SourceLocation(file: path, line: 1), lines: lines,
            places: places, utf8: Array(text.utf8))
        file.defaults = try file.entries(members, at: [], profile: nil)
        return file
    }

    /// The entries of the object at `objectPath`: the file's or a profile's.
    private mutating func entries(
        _ members: [(String, JSONValue)], at objectPath: JSONPlaces.Path, profile name: String?
    ) throws(Diagnostic) -> [Entry] {
        let allowsProfiles = name == nil
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        for (index, (key, value)) in members.enumerated() {
            let memberPath = objectPath + [index]
            let location = self.location(ofKey: memberPath)
            // Which one would win is a guess (JSON readers differ): said,
            // not guessed (before, "strict" kept its first value and "tags"
            // its last).
            if let first = seen.updateValue(location.line, forKey: key) {
                throw givenTwice("\"\(key)\"", at: location, first: first, within: name.map { " in the profile \"\($0)\"" } ?? "")
            }
            if key == "profiles" && allowsProfiles {
                profilesLocation = location
                guard case .object(let named) = value else {
                    throw problem(at: memberPath, "\"profiles\" is an object of profiles, not \(value.kind)",
                        help: "write \"profiles\": {\"ci\": {\"strict\": true}}")
                }
                for (position, (profile, options)) in named.enumerated() {
                    guard case .object(let keys) = options else {
                        throw problem(at: memberPath + [position], "the profile \"\(profile)\" is an object of options, not \(options.kind)",
                            help: "write \"\(profile)\": {\"strict\": true}")
                    }
                    let place = self.location(ofKey: memberPath + [position])
                    // A profile named twice: said, as a key given twice is (--profile would take the first).
                    if let first = profiles.first(where: { $0.name == profile }) {
                        throw givenTwice("the profile \"\(profile)\"", at: place, first: first.location.line)
                    }
                    profiles.append((profile, place, try self.entries(keys, at: memberPath + [position], profile: profile)))
                }
                continue
            }
            guard let kind = Self.keys[key] else {
                let known = Self.keys.keys.sorted() + (allowsProfiles ? ["profiles"] : [])
                let guess = known.min { key.editDistance(to: $0) < key.editDistance(to: $1) }
                let suggestion = guess.flatMap { key.editDistance(to: $0) <= max(2, key.count / 3) ? "did you mean \"\($0)\"? " : nil }
                let where_ = name.map { key == "profiles" ? " in the profile \"\($0)\" (profiles do not nest)" : " in the profile \"\($0)\"" } ?? ""
                throw Diagnostic(
                    at: location, problem: "unknown key \"\(key)\"\(where_)",
                    help: (suggestion ?? "") + "the keys are: " + known.joined(separator: ", "), sourceLine: sourceLine(location.line))
            }
            try check(value, at: memberPath, kind: kind, key: key)
            entries.append(Entry(key: key, value: value, path: memberPath, location: location, sourceLine: sourceLine(location.line)))
        }
        return entries
    }

    /// Fails unless a key's value (at `valuePath`) is of the kind its key takes.
    private func check(_ value: JSONValue, at valuePath: JSONPlaces.Path, kind: Kind, key: String) throws(Diagnostic) {
        switch (kind, value) {
        case (.flag, .bool), (.value, .string), (.value, .int), (.value, .double), (.values, .string), (.paths, .string): return
        case (.values, .array(let items)), (.paths, .array(let items)):
            for (index, item) in items.enumerated() {
                guard case .string = item else {
                    throw problem(at: valuePath + [index], "\"\(key)\" lists strings, not \(item.kind)", help: "write \"\(key)\": [\"…\"]")
                }
            }
        case (.parameters, .object(let members)):
            var seen: [String: Int] = [:]
            for (index, (name, parameter)) in members.enumerated() {
                // A parameter named twice: said, as a key given twice is (-D would take the last).
                let location = self.location(ofKey: valuePath + [index])
                if let first = seen.updateValue(location.line, forKey: name) {
                    throw givenTwice("the parameter \"\(name)\"", at: location, first: first)
                }
                switch parameter {
                case .string, .int, .double, .bool: continue
                default:
                    throw problem(
                        at: valuePath + [index], "the parameter \"\(name)\" is \(parameter.kind); a parameter is a string, a number or true/false",
                        help: "write \"\(name)\": \"…\"")
                }
            }
        case (.flag, _): throw problem(at: valuePath, "\"\(key)\" is true or false, not \(value.kind)", help: "write \"\(key)\": true")
        case (.parameters, _):
            throw problem(at: valuePath, "\"parameters\" is an object, not \(value.kind)", help: "write \"parameters\": {\"base-url\": \"http://localhost:8080\"}")
        default:
            throw problem(at: valuePath, "\"\(key)\" is a string or a number, not \(value.kind)", help: "write \"\(key)\": \"…\"")
        }
    }

    /// A name given twice in one object (`within` it, for messages), said
    /// at the second with the first's line: which one a JSON reader keeps
    /// is a guess.
    private func givenTwice(_ what: String, at location: SourceLocation, first: Int, within: String = "") -> Diagnostic {
        Diagnostic(
            at: location, problem: "\(what) is given twice\(within), first on line \(first)", help: "keep one of them",
            sourceLine: sourceLine(location.line))
    }

    /// A problem at the value at `valuePath`.
    private func problem(at valuePath: JSONPlaces.Path, _ problem: String, help: String) -> Diagnostic {
        let place = places.value(valuePath)
        return Diagnostic(
            at: SourceLocation(file: path, line: place.line, column: place.column), problem: problem, help: help,
            sourceLine: sourceLine(place.line))
    }

    /// Where the key of the member at `memberPath` was written.
    private func location(ofKey memberPath: JSONPlaces.Path) -> SourceLocation {
        let place = places.key(memberPath)
        return SourceLocation(file: path, line: place.line, column: place.column)
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

    /// The command-line arguments a key of this file stands for (a number
    /// as it was written).
    func arguments(for entry: Entry) -> [String] {
        let kind = Self.keys[entry.key] ?? .value
        func text(_ value: JSONValue, at valuePath: JSONPlaces.Path) -> String {
            switch value {
            case .string(let text): text
            case .int, .double: String(decoding: utf8[places.value(valuePath).bytes], as: UTF8.self)
            case .bool(let flag): flag ? "true" : "false"
            default: ""
            }
        }
        func list(_ value: JSONValue) -> [String] {
            if case .array(let items) = value { return items.enumerated().map { text($1, at: entry.path + [$0]) } }
            return [text(value, at: entry.path)]
        }
        switch kind {
        case .flag: return entry.value == .bool(true) ? ["--\(entry.key)"] : []
        case .value: return ["--\(entry.key)", text(entry.value, at: entry.path)]
        case .values: return list(entry.value).flatMap { ["--\(entry.key)", $0] }
        case .paths: return ["--"] + list(entry.value)
        case .parameters:
            guard case .object(let members) = entry.value else { return [] }
            return members.enumerated().flatMap { ["-D", "\($1.0)=\(text($1.1, at: entry.path + [$0]))"] }
        }
    }
}

extension Substring {
    fileprivate func trimmingSuffix(_ suffix: Character) -> Substring {
        last == suffix ? dropLast() : self
    }
}
