// The public C++ API of libfluss, all of it: include this, or the one header of the type used.
//
// Threading: every object here is thread-safe. Methods ending in `Async` never block; they
// call their callback exactly once, on the connection's I/O thread, so callbacks must be quick
// and must not call blocking methods of this API. Blocking helpers (`Wait`, `Await`) must not
// be called from a callback.
#pragma once

#include "fluss/admin.h"
#include "fluss/append_writer.h"
#include "fluss/callbacks.h"
#include "fluss/config.h"
#include "fluss/connection.h"
#include "fluss/error_codes.h"
#include "fluss/log_scanner.h"
#include "fluss/lookuper.h"
#include "fluss/status.h"
#include "fluss/table.h"
#include "fluss/types.h"
#include "fluss/upsert_writer.h"
#include "fluss/value.h"
#include "fluss/write_result.h"

#include "fluss/await.h"
