import IAPDeskCLI

await IAPDesk.runFromCommandLine()
