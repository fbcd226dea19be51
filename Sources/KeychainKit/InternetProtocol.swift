/// The protocol of an internet password (`kSecAttrProtocol`), part of the item's identity.
///
/// Raw values are Apple's four-character codes.
public enum ProtocolType: String, Sendable, Hashable, CaseIterable {
    /// FTP.
    case ftp = "ftp "
    /// An FTP account.
    case ftpAccount = "ftpa"
    /// HTTP.
    case http = "http"
    /// IRC.
    case irc = "irc "
    /// NNTP (news).
    case nntp = "nntp"
    /// POP3 mail.
    case pop3 = "pop3"
    /// SMTP mail.
    case smtp = "smtp"
    /// A SOCKS proxy.
    case socks = "sox "
    /// IMAP mail.
    case imap = "imap"
    /// LDAP directory.
    case ldap = "ldap"
    /// AppleTalk.
    case appleTalk = "atlk"
    /// AFP file sharing.
    case afp = "afp "
    /// Telnet.
    case telnet = "teln"
    /// SSH.
    case ssh = "ssh "
    /// FTP over TLS.
    case ftps = "ftps"
    /// HTTPS.
    case https = "htps"
    /// An HTTP proxy.
    case httpProxy = "htpx"
    /// An HTTPS proxy.
    case httpsProxy = "htsx"
    /// An FTP proxy.
    case ftpProxy = "ftpx"
    /// SMB file sharing.
    case smb = "smb "
    /// RTSP streaming.
    case rtsp = "rtsp"
    /// An RTSP proxy.
    case rtspProxy = "rtsx"
    /// DAAP (media sharing).
    case daap = "daap"
    /// Remote Apple Events.
    case eppc = "eppc"
    /// IPP printing.
    case ipp = "ipp "
    /// NNTP over TLS.
    case nntps = "ntps"
    /// LDAP over TLS.
    case ldaps = "ldps"
    /// Telnet over TLS.
    case telnetS = "tels"
    /// IMAP over TLS.
    case imaps = "imps"
    /// IRC over TLS.
    case ircs = "ircs"
    /// POP3 over TLS.
    case pop3S = "pops"
}

/// How the server authenticates an internet password (`kSecAttrAuthenticationType`), part of
/// the item's identity.
///
/// Raw values are Apple's four-character codes.
public enum AuthenticationType: String, Sendable, Hashable, CaseIterable {
    /// Windows NTLM.
    case ntlm = "ntlm"
    /// Microsoft Network.
    case msn = "msna"
    /// Distributed Password Authentication.
    case dpa = "dpaa"
    /// Remote Password Authentication.
    case rpa = "rpaa"
    /// HTTP Basic.
    case httpBasic = "http"
    /// HTTP Digest.
    case httpDigest = "httd"
    /// A login form on a web page.
    case htmlForm = "form"
    /// The server's default scheme; what `Keychain(server:protocolType:)` uses unless told.
    case `default` = "dflt"
}
