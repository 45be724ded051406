#include <lcms2.h>

/* Little CMS pixel formats are function-like macros, which Swift does not import: the ones the
 * colour transforms use, as constants. */
static const cmsUInt32Number IMGLCMS_TYPE_RGBA_8 = TYPE_RGBA_8;
/* Grey in the first byte of four (grey replicated in RGBA rows; the other three left alone). */
static const cmsUInt32Number IMGLCMS_TYPE_GRAY_IN_RGBA_8 =
    COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(1) | EXTRA_SH(3);
/* CMYK stored inverted (255 = no ink), as Adobe applications write it and libjpeg returns it. */
static const cmsUInt32Number IMGLCMS_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
/* Three floats a pixel, for measuring a transform. */
static const cmsUInt32Number IMGLCMS_TYPE_RGB_FLT = TYPE_RGB_FLT;
