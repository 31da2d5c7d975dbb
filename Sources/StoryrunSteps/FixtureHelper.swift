import Foundation

/// A stand-in for a process a user's `main` starts before the run (a
/// shared test server): `storyrun`'s main starts one when
/// `STORYRUN_FIXTURE_HELPER` names a file, so a test can see that the run
/// leaves the parent's running and ends those its workers started.
public enum FixtureHelper {
    /// Starts `sleep 296.75`, as a user would (Foundation's `Process`), and
    /// adds its pid to the file at `log`, a line each; the parent runs
    /// `main` first, and each worker started again runs it too.
    public static func start(noting log: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["296.75"]
        guard (try? process.run()) != nil, let file = fopen(log, "a") else { return }
        fputs("\(process.processIdentifier)\n", file)
        fclose(file)
    }
}
