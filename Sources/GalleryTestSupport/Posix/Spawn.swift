import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts a child with `posix_spawn`, stdout and stderr on fresh pipes, stdin on /dev/null.
///
/// Not Foundation's `Process`: on Linux it spawns children with nearly every signal blocked
/// (their SigBlk mask was 0xfffffffe3bfbea27 here), so SIGTERM and SIGINT never reached nginx
/// or the CLI under test. Here the child gets an empty signal mask and default handlers.
enum Spawn {
    struct Child {
        var pid: pid_t
        var stdoutFD: Int32
        var stderrFD: Int32
    }

    static func start(path: String, arguments: [String], environment: [String: String],
                      currentDirectory: String?) throws(TestSupportError) -> Child {
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        // O_CLOEXEC: the child keeps only the dup2'd copies, and no other child inherits these.
        guard GNUFunctions.pipe2(&stdoutPipe, O_CLOEXEC) == 0 else { throw .system(operation: "pipe2", errno: errno) }
        guard GNUFunctions.pipe2(&stderrPipe, O_CLOEXEC) == 0 else {
            let code = errno
            stdoutPipe.forEach { close($0) }
            throw .system(operation: "pipe2", errno: code)
        }
        defer {
            close(stdoutPipe[1])
            close(stderrPipe[1])
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        if let currentDirectory { _ = GNUFunctions.posixSpawnFileActionsAddChdir(&actions, currentDirectory) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        // Its own process group (pgid = pid), so leftovers it forks can be killed as a group.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            [stdoutPipe[0], stderrPipe[0]].forEach { close($0) }
            throw .launchFailed(executable: path, reason: String(cString: strerror(result)))
        }
        return Child(pid: pid, stdoutFD: stdoutPipe[0], stderrFD: stderrPipe[0])
    }

    /// Blocks until `pid` exits; returns (status, signal) decoded from the wait status.
    static func wait(pid: pid_t) -> (status: Int32, signal: Int32?) {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            if errno != EINTR { return (-1, nil) }
        }
        let signal = raw & 0x7F
        return signal == 0 ? ((raw >> 8) & 0xFF, nil) : (signal, signal)
    }
}
