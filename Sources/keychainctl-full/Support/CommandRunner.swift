import KeychainctlCommandLine

import ArgumentParser

/// Runs one command line and turns every outcome into an exit status, so that the process and
/// interactive mode report results the same way.
enum CommandRunner {
    /// What running one command gave.
    struct Outcome {
        /// The process exit status.
        let exitCode: Int32
        /// What interactive mode prints after "returned": the raw OSStatus for keychain
        /// failures (as `security` prints it), otherwise the exit status.
        let reported: Int32
    }

    /// The whole process: global options, then one command or the interactive loop.
    static func runProcess() -> Int32 {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let (globals, rest) = GlobalOptions.parse(arguments)
        if globals.help {
            return execute(["help"] + rest).exitCode
        }
        if !rest.isEmpty {
            // Only here: in interactive mode the command comes from standard input, which the
            // process listing does not show (that is why go-keyring uses it).
            if CommandLinePasswords.redact(ArgumentNormalizer.normalize(rest)).foundPassword {
                Console.err(CommandLinePasswords.warning)
            }
            return execute(rest, verbose: globals.verbose).exitCode
        }
        if globals.interactive {
            return InteractiveSession(options: globals).run()
        }
        // Like `security` with no command: the usage, and the usage status.
        Console.out(Keychainctl.helpMessage() + "\n")
        return ExitStatus.usage
    }

    /// Parses and runs one command line (without the program name).
    static func execute(_ arguments: [String], verbose: Bool = false) -> Outcome {
        let arguments = ArgumentNormalizer.normalize(arguments)
        if verbose {
            // The echo is for seeing what runs, never what the password is.
            let shown = CommandLinePasswords.redact(arguments).arguments
            Console.err(shown.first.map { [$0] + shown.dropFirst().map { "\"\($0)\"" } }?.joined(separator: " ") ?? "")
            Console.err("\n")
        }
        // The per-credential commands are read by the reader the front shares when it can
        // (PasswordRequest), and run by the executor both programs share.
        let request = PasswordRequest(commandLine: arguments)
        if request == nil, let problem = SubcommandSuggestion.problem(arguments) {
            Console.err(problem)
            return Outcome(exitCode: ExitStatus.usage, reported: ExitStatus.usage)
        }
        do {
            if let request {
                try PasswordCommand.run(request)
            } else {
                var command = try Keychainctl.parseAsRoot(arguments)
                try command.run()
            }
            return Outcome(exitCode: ExitStatus.success, reported: ExitStatus.success)
        } catch let failure as CommandFailure {
            Console.report(failure)
            return Outcome(exitCode: failure.exitCode, reported: failure.reportedResult)
        } catch let exit as ExitCode {
            return Outcome(exitCode: exit.rawValue, reported: exit.rawValue)
        } catch {
            if Keychainctl.exitCode(for: error) == .success {
                // --help, help <command>, --version.
                Console.out(Keychainctl.fullMessage(for: error) + "\n")
                return Outcome(exitCode: ExitStatus.success, reported: ExitStatus.success)
            }
            // The parser quotes what it could not parse, and `-wsecret` is such an argument.
            Console.err(CommandLinePasswords.scrub(Keychainctl.fullMessage(for: error), arguments: arguments) + "\n")
            return Outcome(exitCode: ExitStatus.usage, reported: ExitStatus.usage)
        }
    }
}
