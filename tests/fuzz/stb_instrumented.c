// The fuzzer compiles stb_image and stb_image_write from Debian's headers into itself, instead of
// linking the prebuilt libstb.so, so that libFuzzer's coverage guidance and ASan/UBSan see inside
// the decoders (the code the fuzzer is really exercising). The main build links libstb.so.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
