#if Server
// The server's settings, URL grammar and signatures live in KiraServerAPI, which builds without
// SwiftNIO (`kira sign` and `kira serve`'s options use it); a program that embeds the server
// names them through this module alone.
@_exported import KiraServerAPI
#endif
