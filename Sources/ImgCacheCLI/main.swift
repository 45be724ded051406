#if canImport(Glibc)
import Glibc
#endif
import ImgCacheCommandLine

MallocArenas.limitToCores()
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
