@testable import KeychainCallerIdentity
import Testing

/// What the resolver makes of /proc contents it cannot fully trust: the real shapes, and odd
/// or hostile ones (any bytes a process can put in its name, its cgroup names, its command line).
@Suite struct ProcParsingTests {
    static func cgroup(_ text: String) -> CgroupPlacement? { CgroupPlacement.parse(Array(text.utf8)) }

    @Test func aSystemServiceIsSetByRoot() {
        let unit = Self.cgroup("0::/system.slice/nginx.service\n")?.unit
        #expect(unit == SystemdUnit(name: "nginx.service", manager: .system))
        #expect(unit?.isSetByRoot == true)
        #expect(unit?.claimedApplicationID == nil)
        // Nested slices, and a delegated service's own sub-cgroup.
        #expect(Self.cgroup("0::/system.slice/system-getty.slice/getty@tty1.service\n")?.unit?.name == "getty@tty1.service")
        #expect(Self.cgroup("0::/system.slice/docker.service/payload\n")?.unit?.name == "docker.service")
    }

    @Test func aUserUnitIsMarkedForgeableAndNamesItsClaimedApp() {
        let scope = Self.cgroup("0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Evolution\\x2dalarm\\x2dnotify-2437.scope\n")?.unit
        #expect(scope?.manager == .user(1000))
        #expect(scope?.isSetByRoot == false)
        #expect(scope?.claimedApplicationID == "org.gnome.Evolution-alarm-notify")
        let service = Self.cgroup("0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-org.example.Tool@3f2a.service\n")?.unit
        #expect(service?.claimedApplicationID == "org.example.Tool")
        // A login session's scope is no unit of an application.
        #expect(Self.cgroup("0::/user.slice/user-1000.slice/session-2.scope\n")?.unit == nil)
    }

    @Test func hybridAndOddCgroupFiles() {
        // A hybrid system: the unified line says only /, systemd's named hierarchy says more.
        #expect(Self.cgroup("1:name=systemd:/system.slice/cron.service\n0::/\n")?.unit?.name == "cron.service")
        // Colons in the path, lines without fields, an empty file, a path that is not UTF-8.
        #expect(Self.cgroup("0::/system.slice/a:b.service\n")?.path == "/system.slice/a:b.service")
        #expect(Self.cgroup("garbage\n::\n") == nil)
        #expect(Self.cgroup("") == nil)
        #expect(CgroupPlacement.parse(Array("0::/system.slice/".utf8) + [0xFF, 0xFE] + Array(".service\n".utf8)) == nil)
        // A path of a system slice that is not a unit.
        #expect(Self.cgroup("0::/system.slice\n")?.unit == nil)
    }

    @Test func snapsFromCgroupsAndLabels() {
        #expect(Self.cgroup("0::/user.slice/user-1000.slice/user@1000.service/app.slice/snap.firefox.firefox-6a1f.scope\n")?.snapInstance == "firefox")
        #expect(Self.cgroup("0::/system.slice/snap.lxd_beta.daemon.service\n")?.snapInstance == "lxd_beta")
        #expect(Self.cgroup("0::/system.slice/snapd.service\n")?.snapInstance == nil)
        #expect(Self.cgroup("0::/user.slice/snap.Bad_Name_TooLongKey.x\n")?.snapInstance == nil)
        #expect(SnapApp.instance(inSecurityLabel: "snap.firefox.firefox (enforce)") == "firefox")
        #expect(SnapApp.instance(inSecurityLabel: "snap-update-ns.firefox (enforce)") == nil)
        #expect(SnapApp.instance(inSecurityLabel: "unconfined") == nil)
    }

    @Test func flatpakInfoIsReadAsGLibReadsIt() throws {
        let app = try FlatpakApp.parse(Array("# comment\n[Application]\n name = org.example.A \nname=org.example.B\n\n[Instance]\ninstance-id=42\r\n".utf8))
        // A repeated key: the last wins; spaces around the value go.
        #expect(app == FlatpakApp(applicationID: "org.example.B", instanceID: "42"))
        // A sandbox that runs a runtime alone is named by the runtime, as the portal names it.
        #expect(try FlatpakApp.parse(Array("[Runtime]\nname=org.example.Sdk\n[Instance]\ninstance-id=7\n".utf8)).applicationID == "org.example.Sdk")
        for bad in ["[Application]\nname=org.example.A\n",              // no instance
                    "[Application]\nname=org\n[Instance]\ninstance-id=1\n",  // one element
                    "[Application]\nname=org.ex-ample.A\n[Instance]\ninstance-id=1\n",  // dash before the last element
                    "[Application]\nname=org.example.A\n[Instance]\ninstance-id=1 2\n",
                    "[Application]\nname=org.example.\\q\n[Instance]\ninstance-id=1\n",  // an escape GLib refuses
                    "[Application\nname=org.example.A\n",
                    "[Application]\njust words\n"] {
            #expect(throws: FlatpakApp.Failure.self, "\(bad)") { try FlatpakApp.parse(Array(bad.utf8)) }
        }
        #expect(throws: FlatpakApp.Failure.self) { try FlatpakApp.parse([0x5B, 0xC3, 0x28, 0x5D]) }
        #expect(FlatpakApp.isValidApplicationID(String(repeating: "a.", count: 127) + "b"))
        #expect(!FlatpakApp.isValidApplicationID(String(repeating: "a.", count: 128) + "b"))
    }

    @Test func theScriptIsThePlainFirstArgumentOnly() {
        func script(_ arguments: [String], cut: Bool = false) -> String? {
            var bytes: [UInt8] = []
            for argument in arguments { bytes += Array(argument.utf8) + [0] }
            if cut { bytes.removeLast() }
            return InterpreterScript.scriptArgument(commandLine: bytes).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(script(["python3", "/opt/tool.py", "-v"]) == "/opt/tool.py")
        #expect(script(["python3", "--", "tool.py"]) == "tool.py")
        #expect(script(["python3", "-c", "code"]) == nil)
        #expect(script(["python3", "-W", "ignore", "/opt/tool.py"]) == nil)
        #expect(script(["python3"]) == nil)
        #expect(script(["python3", "--"]) == nil)
        // Cut short by the bound: the last argument is incomplete and not taken.
        #expect(script(["python3", "/opt/tool.py"], cut: true) == nil)
        #expect(InterpreterScript.scriptArgument(commandLine: []) == nil)
    }

    @Test func interpreterNames() {
        for path in ["/usr/bin/python3.11", "/usr/bin/python3", "/bin/sh", "/usr/bin/bash", "/usr/bin/env", "/usr/bin/node18",
                     "/usr/bin/perl5.36.0", "/usr/bin/secret-tool", "/lib64/ld-linux-x86-64.so.2", "/usr/bin/lua5.4",
                     "/usr/bin/guile-3.0", "/usr/bin/qemu-aarch64", "/usr/bin/python3.11 (deleted)"] {
            #expect(Interpreters.isInterpreter(path: path), "\(path)")
        }
        for path in ["/usr/bin/sleep", "/usr/bin/git", "/usr/bin/shred", "/usr/bin/pythonista-not", "/usr/bin/keychainctl"] {
            #expect(!Interpreters.isInterpreter(path: path), "\(path)")
        }
        #expect(!Interpreters.isInterpreter(path: nil))
    }

    @Test func statusFilesWithOddNames() {
        var bytes = Array("Name:\t".utf8) + [0xFF, 0xFE] + Array("\nState:\tS (sleeping)\nUid:\t1000\t1001\t1001\t1001\nGid:\t100\t101\t101\t101\n".utf8)
        #expect(ProcessStatus.parse(bytes) == ProcessStatus(state: "S", effectiveUserID: 1001, effectiveGroupID: 101))
        bytes = Array("State:\tZ (zombie)\nUid:\t1\t1\t1\t1\nGid:\t1\t1\t1\t1\n".utf8)
        #expect(ProcessStatus.parse(bytes)?.isZombie == true)
        #expect(ProcessStatus.parse(Array("State:\tR\nUid:\tx\n".utf8)) == nil)
    }
}
