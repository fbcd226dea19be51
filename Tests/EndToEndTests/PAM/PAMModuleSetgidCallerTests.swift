import Foundation
import Testing

extension PAMModuleTests {
    /// A program of the user's own that is setgid (a screen locker of group shadow, say) runs the
    /// module without root: the helper must still get none of the program's extra group ids.
    /// Here pamtester runs as the user with effective and saved gid 0, and the helper, a stand-in
    /// that reports its ids on standard error (the module logs that line), says what it got.
    @Test("Called by a setgid program of the user's, the helper runs with the user's ids only, saved ones too")
    func setgidCallerGivesNoGroup() throws {
        let bed = try PAMTestBed()
        // Python, not sh: dash and bash drop an effective gid that differs from the real one
        // themselves, which would hide what the module passed on.
        let reporter = try bed.writeHelper("id-reporter", """
            import os, sys
            sys.stderr.write("ids uid=%d,%d,%d gid=%d,%d,%d\\n" % (os.getresuid() + os.getresgid()))

            """, interpreter: "/usr/bin/python3")
        try bed.writeService(options: "helper=\(reporter.path)")
        let step = SessionStep(arguments: ["/usr/bin/setpriv", "--reuid=\(bed.uid)", "--rgid=\(bed.gid)", "--egid=0", "--init-groups",
                                           "/usr/bin/pamtester", "-v", bed.service, bed.user, "authenticate", "open_session"],
                               stdin: bed.password + "\n")
        let result = try bed.runSession([step])[0]
        #expect(result.status == 0, "\(result)")
        let lines = bed.log.drain()
        let reported = lines.first { $0.contains("ids uid=") }
        let u = bed.uid, g = bed.gid
        #expect(reported?.contains("ids uid=\(u),\(u),\(u) gid=\(g),\(g),\(g)") == true, "\(lines)")
    }
}
