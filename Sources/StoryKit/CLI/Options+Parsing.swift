/// The options being parsed, with what the arguments read so far decided
/// about those given earlier (by a config file).
extension Options {
    /// The state of ``Options/apply(_:overridesEarlier:)``, which each
    /// option's declaration changes.
    struct Parsing {
        /// The options so far.
        var options: Options
        /// The arguments not read yet.
        var remaining: ArraySlice<String>
        /// Whether these arguments override earlier ones (the command line
        /// over a config file).
        let overridesEarlier: Bool
        private var replacesPaths: Bool
        private var replacesTerminal: Bool
        // The command line's first --tags (--name) replaces the config's.
        private var replacesTags: Bool
        private var replacesNames: Bool
        private var replacedFormats: Set<ReportFormat> = []

        init(options: Options, remaining: ArraySlice<String>, overridesEarlier: Bool) {
            self.options = options
            self.remaining = remaining
            self.overridesEarlier = overridesEarlier
            replacesPaths = overridesEarlier
            replacesTerminal = overridesEarlier
            replacesTags = overridesEarlier
            replacesNames = overridesEarlier
        }

        /// Reads `argument` as the option it names in `declarations`, with
        /// its value (the next argument, which cannot be an option);
        /// returns false when it names none.
        mutating func readOption(_ argument: String, from declarations: [String: OptionDeclaration]) throws(Diagnostic) -> Bool {
            guard let declaration = declarations[argument] else { return false }
            var value = ""
            if declaration.value != nil {
                guard let given = remaining.popFirst(), !given.hasPrefix("--") else { throw declaration.missingValue(argument) }
                value = given
            }
            try declaration.apply(&self, value)
            return true
        }

        /// Adds paths to run; the first given over a config's replaces its paths.
        mutating func addPaths(_ more: [String]) {
            if replacesPaths {
                options.paths = []
                options.emptyRerunFile = nil
                options.rerunFiles = []
                replacesPaths = false
            }
            options.paths += more
        }

        /// Adds a report. A file report over a config's replaces the
        /// config's of its format; the first terminal format replaces the
        /// config's; a terminal format given twice prints once.
        mutating func addReport(_ request: ReportRequest) {
            if request.format.isFile {
                if overridesEarlier, replacedFormats.insert(request.format).inserted {
                    options.reports.removeAll { $0.format == request.format }
                }
            } else if replacesTerminal {
                options.reports.removeAll { !$0.format.isFile }
                replacesTerminal = false
            }
            if !request.format.isFile, options.reports.contains(request) { return }
            options.reports.append(request)
        }

        /// Adds a `--tags` expression (all must match).
        mutating func addTags(_ expression: String) {
            if replacesTags { options.tagExpressions = [] }
            replacesTags = false
            options.tagExpressions.append(expression)
        }

        /// Adds a `--name` pattern (any may match).
        mutating func addName(_ pattern: String) {
            if replacesNames { options.namePatterns = [] }
            replacesNames = false
            options.namePatterns.append(pattern)
        }
    }
}
