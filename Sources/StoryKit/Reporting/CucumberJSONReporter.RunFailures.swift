extension CucumberJSONReporter {
    /// What fails a run outside its stories, as Cucumber JSON: failed
    /// before-run and after-run hooks, and story files the run rejected.
    ///
    /// Cucumber JSON has no place for either (Cucumber's own formatters
    /// leave them out), so a report of a run they failed would read as
    /// green, and `storyrun merge` of it exit 0. They are written as extra
    /// features after the stories' (valid Cucumber JSON, which dashboards
    /// read), marked with fields of storyrun's own that
    /// ``CucumberJSONDecoder`` reads back:
    ///
    /// - failed run hooks: one feature, `"storyrun_run_hooks": true`,
    ///   with an element for each hook that holds it as a failed `before`
    ///   (or `after`) hook, so dashboards count it failed, as JUnit's
    ///   `run hooks` suite does; the element's `storyrun_hook` is its kind.
    /// - a rejected story file: a feature with its `uri`, no elements and
    ///   `storyrun_rejected`, each problem's `line`, `column`, `message`
    ///   and `help` (a path that names no file: `uri` empty, line 0);
    /// - whatever else failed the run (a worker that ran out of
    ///   descriptors, an answer out of turn on a worker's channel: problems
    ///   the run gives as notes) and the stories it did not run (an
    ///   interrupt): one feature, `"storyrun_run_failed"` with their
    ///   `failures` and `not_run` counts, whose one element holds a failed
    ///   `before` hook that says so.
    struct RunFailures {
        /// The failed before-run and after-run hooks, in the order they ran.
        var hooks: [HookResult] = []
        /// The story files the run rejected.
        var rejectedFiles: [RejectedFile] = []
        /// Failures of the run that are not failed run hooks, and stories
        /// not run, from its summary.
        var otherFailures = 0
        var notRun = 0

        /// "N problems outside the stories and M stories not run", or nil
        /// when both are 0.
        static func describe(failures: Int, notRun: Int) -> String? {
            let parts = [
                failures > 0 ? "\(failures) problem\(failures == 1 ? "" : "s") outside the stories" : nil,
                notRun > 0 ? "\(notRun) stor\(notRun == 1 ? "y" : "ies") not run" : nil,
            ].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: " and ")
        }

        /// Records a failed run hook or a rejected story file.
        mutating func handle(_ event: RunEvent) {
            switch event {
            case .runHookFinished(let hook) where hook.status == .failed: hooks.append(hook)
            case .storyFileRejected(let file): rejectedFiles.append(file)
            case .runFinished(let summary):
                otherFailures = max(0, summary.failedHooks - hooks.count)
                notRun = summary.notRun
            default: break
            }
        }

        /// The features that say what failed.
        var features: [JSONValue] {
            var features: [JSONValue] = rejectedFiles.map { rejected in
                .object([
                    ("uri", .string(rejected.path)),
                    ("id", .string(rejected.path.isEmpty ? "story-paths" : CucumberJSONReporter.slug(SourceLocation.relativePath(rejected.path)))),
                    ("keyword", .string(rejected.path.hasSuffix(".feature") ? "Feature" : "Stories")),
                    ("name", .string(rejected.path.isEmpty ? "story paths" : SourceLocation.relativePath(rejected.path))),
                    ("description", .string("")),
                    ("line", .int(1)),
                    ("elements", .array([])),
                    ("storyrun_rejected", .array(rejected.problems.map { problem in
                        var members: [(String, JSONValue)] = [
                            ("line", .int(Int64(problem.location?.line ?? 0))),
                            ("column", .int(Int64(problem.location?.column ?? 0))),
                            ("message", .string(problem.problem)),
                        ]
                        if let help = problem.help { members.append(("help", .string(help))) }
                        return .object(members)
                    })),
                ])
            }
            if let what = Self.describe(failures: otherFailures, notRun: notRun) {
                let failure = HookResult(
                    kind: "run", location: SourceLocation(file: "", line: 0), status: .failed,
                    error: StepError(message: "the run failed: \(what) (see the run's output)"), duration: 0)
                features.append(.object([
                    ("uri", .string("")),
                    ("id", .string("run-failed")),
                    ("keyword", .string("Run")),
                    ("name", .string("run")),
                    ("description", .string("")),
                    ("line", .int(1)),
                    ("elements", .array([.object([
                        ("id", .string("run-failed;run")),
                        ("keyword", .string("Run")),
                        ("name", .string(what)),
                        ("description", .string("")),
                        ("line", .int(1)),
                        ("type", .string("scenario")),
                        ("before", .array([CucumberJSONReporter.hook(failure)])),
                        ("steps", .array([])),
                    ])])),
                    ("storyrun_run_failed", .object([("failures", .int(Int64(otherFailures))), ("not_run", .int(Int64(notRun)))])),
                ]))
            }
            guard let first = hooks.first else { return features }
            features.append(.object([
                ("uri", .string(first.location.displayPath)),
                ("id", .string("run-hooks")),
                ("keyword", .string("Run hooks")),
                ("name", .string("run hooks")),
                ("description", .string("")),
                ("line", .int(1)),
                ("elements", .array(hooks.map { hook in
                    .object([
                        ("id", .string("run-hooks;" + CucumberJSONReporter.slug(hook.kind))),
                        ("keyword", .string("Hook")),
                        ("name", .string("\(hook.kind) hook")),
                        ("description", .string("")),
                        ("line", .int(Int64(hook.location.line))),
                        ("type", .string("scenario")),
                        (hook.kind.hasPrefix("after") ? "after" : "before", .array([CucumberJSONReporter.hook(hook)])),
                        ("steps", .array([])),
                        ("storyrun_hook", .string(hook.kind)),
                    ])
                })),
                ("storyrun_run_hooks", .bool(true)),
            ]))
            return features
        }
    }
}
