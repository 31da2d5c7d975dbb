import Foundation

/// What a step library sets on a child it spawns (a command, a browser).
package enum SpawnAttributes {
    /// Sets `attributes` for a process group of its own (pgid = pid), every
    /// signal at its default action and none blocked, whatever the worker
    /// process set for itself: so the child can be stopped, and its
    /// group ended as one.
    package static func setOwnGroupAndDefaultSignals(_ attributes: inout posix_spawnattr_t) {
        var defaults = sigset_t(), empty = sigset_t()
        sigfillset(&defaults)
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    }
}
