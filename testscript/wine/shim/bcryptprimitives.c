/*
 * bcryptprimitives.dll for Wine 8, for the Windows tests only: never
 * shipped. The Go runtime (Go 1.22 on) asks bcryptprimitives.dll for
 * ProcessPrng when it starts, and stops with "bcryptprimitives.dll not
 * found" where it is missing, as it is in Wine 8. This one fills the
 * buffer with advapi32's RtlGenRandom (SystemFunction036), which Wine has.
 * The tests build it with x86_64-w64-mingw32-gcc and copy it into the
 * system32 of the private WINEPREFIX they create.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG n = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, n))
            return FALSE;
        data += n;
        length -= n;
    }
    return TRUE;
}
