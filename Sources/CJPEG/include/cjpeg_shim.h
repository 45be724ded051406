#ifndef IMGCACHE_CJPEG_SHIM_H
#define IMGCACHE_CJPEG_SHIM_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <jpeglib.h>

/* A libjpeg decompressor whose errors come back as return codes: every function that can reach
 * libjpeg's error_exit runs under setjmp here, so the longjmp never crosses a Swift frame.
 * Functions returning int give 0 on success and -1 on error (see imgjpeg_error_message). */
typedef struct imgjpeg_decoder imgjpeg_decoder;

imgjpeg_decoder *imgjpeg_decoder_create(void);
void imgjpeg_decoder_destroy(imgjpeg_decoder *decoder);

/* The fields of the decompressor, to read the header and set decoding parameters. */
struct jpeg_decompress_struct *imgjpeg_decoder_cinfo(imgjpeg_decoder *decoder);
const char *imgjpeg_error_message(const imgjpeg_decoder *decoder);

/* Number of warnings (corrupt data libjpeg recovered from), and whether the data ended early:
 * the file stopped (a truncated download) or a scan ran into EOI before its last block. */
int imgjpeg_warning_count(const imgjpeg_decoder *decoder);
int imgjpeg_data_ended_early(const imgjpeg_decoder *decoder);
/* After imgjpeg_start: 1 when a progressive file's scans stop early, 0 otherwise. Early means a
 * component's DC coefficient is unsent or short of full precision, or a successive-approximation
 * refinement of some AC coefficient never came: the end of every standard scan script refines all
 * to full precision. AC bands never sent at all are allowed (a scan script may skip them). */
int imgjpeg_coefficients_incomplete(const imgjpeg_decoder *decoder);

/* Reads from memory that must stay valid until destroy, or from an open file. */
int imgjpeg_use_memory(imgjpeg_decoder *decoder, const uint8_t *bytes, size_t count);
int imgjpeg_use_file(imgjpeg_decoder *decoder, FILE *file);

/* Limits: scans of a progressive file (a many-scan file is a denial of service) and bytes libjpeg may
 * allocate (a progressive file holds every coefficient). 0 keeps libjpeg's own behaviour. */
void imgjpeg_set_limits(imgjpeg_decoder *decoder, int max_scans, long max_memory);

int imgjpeg_read_header(imgjpeg_decoder *decoder);
int imgjpeg_calc_output_dimensions(imgjpeg_decoder *decoder);
int imgjpeg_start(imgjpeg_decoder *decoder);
/* After imgjpeg_start, before any row: decode only output columns *xoffset ..< *xoffset + *width,
 * which libjpeg widens to whole iMCUs (and writes back); rows then hold *width pixels. */
int imgjpeg_crop_columns(imgjpeg_decoder *decoder, unsigned int *xoffset, unsigned int *width);
/* Skips the next `count` output rows (libjpeg still reads their data, without the IDCT); *skipped
 * tells how many it skipped. */
int imgjpeg_skip_rows(imgjpeg_decoder *decoder, unsigned int count, unsigned int *skipped);
/* Reads up to max_rows scanlines into rows; *rows_read tells how many arrived. */
int imgjpeg_read_rows(imgjpeg_decoder *decoder, uint8_t **rows, int max_rows, int *rows_read);
/* Ends decoding early or after the last row; never fails. */
void imgjpeg_abort(imgjpeg_decoder *decoder);

/* Encodes rows of RGBA (components == 4, alpha ignored), RGB (3) or gray (1) as a JPEG of the given
 * quality (1-100): baseline (SOF0), or progressive (SOF2, libjpeg's standard scan script) when
 * progressive is not 0; chroma at 4:2:0, or 4:4:4 when full_chroma is not 0; embedding the ICC
 * profile of icc_length bytes at icc in APP2 segments when icc is not NULL. On success *output is
 * a malloc'd buffer the caller frees. */
int imgjpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality,
                   int progressive, int full_chroma, const uint8_t *icc, size_t icc_length,
                   unsigned char **output, unsigned long *output_size, char *message, size_t message_size);

#endif
