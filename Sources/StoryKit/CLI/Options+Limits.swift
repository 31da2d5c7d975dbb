import Foundation

/// The ranges options must be in, checked before anything runs, and the
/// check that no two reports write the same file.
extension Options {
    /// The longest `--step-timeout`: a day. Longer is a mistake (and past
    /// about 584 years it no longer fits the nanoseconds the watchdog counts).
    static let longestStepTimeout: Double = 86_400
    /// The shortest `--step-timeout`: a millisecond; shorter rounds to no
    /// time at all.
    static let shortestStepTimeout: Double = 0.001
    /// The most `--retry` allows: a story failing 100 times is not flaky.
    static let mostRetries = 100
    /// The file descriptors each worker process costs its parent: the pipe
    /// that hands it stories, the pipe its results come back on, the pipe of
    /// its captured output, and one to watch it end.
    static let descriptorsPerWorker = 4
    /// The file descriptors the parent keeps for itself: standard streams,
    /// report files, story files being read ahead, the runtime's own.
    static let parentDescriptors = 32

    /// Reads `--step-timeout`: finite seconds, from a millisecond to a day.
    static func stepTimeout(_ value: String) throws(Diagnostic) -> Double {
        guard let seconds = Double(value), seconds.isFinite,
            (shortestStepTimeout...longestStepTimeout).contains(seconds)
        else {
            throw Diagnostic(
                at: nil,
                problem: "--step-timeout \(value) is not a number of seconds from 0.001 to 86400 (a day)",
                help: "write --step-timeout 30")
        }
        return seconds
    }

    /// Reads `--retry`: 0 to ``mostRetries``.
    static func retries(_ value: String) throws(Diagnostic) -> Int {
        guard let count = Int(value), (0...mostRetries).contains(count) else {
            throw Diagnostic(
                at: nil, problem: "--retry \(value) is not a number of retries from 0 to \(mostRetries)",
                help: "write --retry 2")
        }
        return count
    }

    /// Reads `--jobs`: 1 up to ``mostJobs(openFileLimit:cores:)``.
    static func jobs(_ value: String) throws(Diagnostic) -> Int {
        guard let count = Int(value), count >= 1 else {
            throw Diagnostic(at: nil, problem: "--jobs \(value) is not a number of workers", help: "write --jobs 4")
        }
        let limit = openFileLimit()
        let most = mostJobs(openFileLimit: limit, cores: ProcessInfo.processInfo.activeProcessorCount)
        guard count <= most.count else {
            throw Diagnostic(
                at: nil, problem: "--jobs \(value) is more workers than this run can have: at most \(most.count) \(most.reason)",
                help: most.isOpenFileBound
                    ? "write --jobs \(most.count) or fewer, or raise the open-file limit (ulimit -n \(max(1024, (count * descriptorsPerWorker + parentDescriptors)))) and run again"
                    : "write --jobs \(most.count) or fewer")
        }
        return count
    }

    /// The most workers a run may have, and why: each costs the parent
    /// ``descriptorsPerWorker`` file descriptors, and past four a core (or
    /// 64 on a small machine) more workers only compete for the processors
    /// and memory (each is a whole process of the step library).
    static func mostJobs(openFileLimit: Int, cores: Int) -> (count: Int, reason: String, isOpenFileBound: Bool) {
        let byFiles = max(1, (openFileLimit - parentDescriptors) / descriptorsPerWorker)
        let byCores = max(64, 4 * cores)
        if byFiles < byCores {
            return (byFiles, "(the open-file limit is \(openFileLimit); each worker needs \(descriptorsPerWorker))", true)
        }
        return (byCores, "(the most storyrun starts: 64, or 4 a core past 16 cores; this machine has \(cores))", false)
    }

    /// The soft limit on open files (`ulimit -n`).
    static func openFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return limit.rlim_cur > rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }

    /// Checks that no two reports write the same file, however it is
    /// spelled (`./a.xml`, `a.xml`, a symlink or a hard link to it); reports
    /// to a device, FIFO or standard output may share it.
    /// - Throws: A usage ``Diagnostic`` naming both options.
    static func checkReportPaths(_ reports: [ReportRequest]) throws(Diagnostic) {
        var seen: [String: ReportRequest] = [:]
        for report in reports {
            guard let path = report.path, let identity = ReportDestination.identity(of: path) else { continue }
            if let earlier = seen[identity] {
                let same = earlier.path == path ? "" : " (\(earlier.path ?? "") and \(path) are the same file)"
                throw Diagnostic(
                    at: nil,
                    problem: "--\(earlier.format.rawValue) and --\(report.format.rawValue) would both write \(path)\(same)",
                    help: "give each report a file of its own")
            }
            seen[identity] = report
        }
    }
}
