import Foundation

/// The variables in which CI systems name a parallel job's share of the
/// work, read into `--shard I/N` when neither the command line nor the
/// config gave one.
///
/// GitLab counts from 1; Buildkite, CircleCI and Kubernetes from 0, so
/// their index is shifted to storyrun's 1-based shard. Kubernetes indexed
/// Jobs name the index only: the total comes from `STORYRUN_SHARD_TOTAL`,
/// which the Job sets to its `completions`. A total of 1 is the whole run
/// (CircleCI sets `CIRCLE_NODE_TOTAL=1` in every job), so it names no shard.
struct ShardVariables: Sendable {
    /// The CI, for the error that names its variables.
    let system: String
    /// The variable that holds the job's index.
    let index: String
    /// The variable that holds the number of jobs.
    let total: String
    /// The first job's index: 1 (GitLab) or 0.
    let firstIndex: Int

    /// Every CI storyrun reads, in the order it looks for them.
    static let known: [ShardVariables] = [
        ShardVariables(system: "GitLab's parallel: N", index: "CI_NODE_INDEX", total: "CI_NODE_TOTAL", firstIndex: 1),
        ShardVariables(system: "Buildkite's parallelism", index: "BUILDKITE_PARALLEL_JOB", total: "BUILDKITE_PARALLEL_JOB_COUNT", firstIndex: 0),
        ShardVariables(system: "CircleCI's parallelism", index: "CIRCLE_NODE_INDEX", total: "CIRCLE_NODE_TOTAL", firstIndex: 0),
        ShardVariables(
            system: "a Kubernetes indexed Job (set STORYRUN_SHARD_TOTAL to its completions)", index: "JOB_COMPLETION_INDEX",
            total: "STORYRUN_SHARD_TOTAL", firstIndex: 0),
    ]

    /// The shard these variables name, nil when the index variable is not
    /// set or the total is 1.
    /// - Throws: A ``Diagnostic`` naming the variables when the total is
    ///   missing or the values are not a job of the total.
    func shard(_ variable: (String) -> String?) throws(Diagnostic) -> Shard? {
        guard let indexText = variable(index) else { return nil }
        guard let totalText = variable(total) else {
            throw Diagnostic(
                at: nil, problem: "\(index)=\(indexText) is set but \(total) is not, so it names no shard",
                help: "set \(total) to the number of jobs (\(system)), or give --shard I/N")
        }
        let last = firstIndex == 1 ? "total" : "total - 1"
        let trimmedIndex = indexText.trimmingCharacters(in: .whitespaces)
        let trimmedTotal = totalText.trimmingCharacters(in: .whitespaces)
        guard let number = Int(trimmedIndex), let count = Int(trimmedTotal), count > 0,
            (firstIndex...(count - 1 + firstIndex)).contains(number)
        else {
            throw Diagnostic(
                at: nil,
                problem: "\(index)=\(indexText) and \(total)=\(totalText) do not name a shard (\(firstIndex) ≤ index ≤ \(last))",
                help: "set both as \(system) does, or give --shard I/N")
        }
        guard count > 1 else { return nil }
        return Shard(index: number - firstIndex + 1, count: count)
    }
}

extension Options {
    /// Takes `--shard` from a CI's variables (``ShardVariables``) when
    /// neither the command line nor the config gave one: the first CI whose
    /// index variable is set.
    mutating func fillShard(from environment: [String: String]?) throws(Diagnostic) {
        // The process's own variables are read one at a time: ProcessInfo's
        // `environment` makes a dictionary of them all at each call, which
        // start-up paid for twice.
        func variable(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        guard command == .run, shard == nil else { return }
        for variables in ShardVariables.known where variable(variables.index) != nil {
            guard let named = try variables.shard(variable) else { return }
            shard = named
            shardSource = "\(variables.index) and \(variables.total)"
            return
        }
    }
}
