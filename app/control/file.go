package control

import "tinyrag/app/control/kbinput"

// File is one file the user handed over, read into memory (app/control/kbinput).
type File = kbinput.File
