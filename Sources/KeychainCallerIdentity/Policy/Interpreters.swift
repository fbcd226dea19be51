/// Programs that run whatever their arguments or input tell them to: shells, language runtimes,
/// the dynamic loader (`ld-linux-x86-64.so.2 /any/program` runs that program under the loader's
/// name), emulators and debuggers that host other code, and the generic clients of the Secret
/// Service and D-Bus.
///
/// Such a program's executable says nothing of what it does, so a rule never grants by one
/// alone: a rule naming one must name the script too (``AccessRule``). The list is of the
/// common ones, not of every program that can be scripted; whoever writes a rule for another
/// (an editor, a game engine with a console) must know it.
package enum Interpreters {
    /// Names matched as they are or followed by a version: digits, dots and dashes
    /// (`python3`, `python3.11`, `lua5.4`, `guile-3.0`).
    package static let versionedNames: Set<String> = [
        // Shells.
        "sh", "ash", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "yash", "fish", "csh", "tcsh", "rc", "es", "elvish", "nu", "xonsh",
        "busybox", "toybox",
        // Language runtimes and scripting languages.
        "python", "pypy", "perl", "ruby", "irb", "node", "nodejs", "deno", "bun", "php", "lua", "luajit", "tclsh", "wish", "expect",
        "guile", "gjs", "cjs", "seed", "R", "Rscript", "julia", "java", "jshell", "jrunscript", "scala", "kotlin", "groovy", "dotnet", "mono",
        "swift", "ghci", "runghc", "ocaml", "racket", "sbcl", "clisp", "erl", "escript", "elixir", "awk", "gawk", "mawk", "nawk", "sed",
        "pwsh", "osqueryi",
        // Wrappers that stay alive and run code of their choosing.
        "env", "xargs", "gdb", "lldb", "valgrind", "strace", "ltrace", "rr",
        // Generic clients: they do for anyone what the command line says.
        "secret-tool", "gdbus", "dbus-send", "busctl", "qdbus", "keyring",
    ]

    /// Name beginnings matched with anything after them: the dynamic loaders and user-mode emulators.
    package static let namePrefixes: [String] = ["ld-linux", "ld-musl", "ld.so", "ld64.so", "qemu-", "box64", "box86"]

    /// Whether the file named `path` (its last component) is one of these.
    package static func isInterpreter(path: String?) -> Bool {
        guard let path else { return false }
        var name = Substring(path.split(separator: "/").last ?? "")
        if name.hasSuffix(" (deleted)") { name = name.dropLast(10) }
        return isInterpreter(name: name)
    }

    package static func isInterpreter(name: Substring) -> Bool {
        if namePrefixes.contains(where: { name.hasPrefix($0) }) { return true }
        var stem = name
        while let last = stem.last, last.isNumber || last == "." || last == "-" { stem = stem.dropLast() }
        return versionedNames.contains(String(name)) || versionedNames.contains(String(stem))
    }
}
