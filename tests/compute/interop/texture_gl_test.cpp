// The image lab's shared texture on the host-copy path (the one PoCL + llvmpipe use): what CL
// computed reaches the GL texture byte for byte, at awkward sizes, in a texture larger than the
// picture, after growing and shrinking; a texture read back into CL is exact too; a requested
// gl-sharing path on a device without it falls back with a reason; bad sizes are refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/image/rotate.hpp"
#include "compute/interop/texture_share.hpp"
#include "tests/compute/interop/gl_context.hpp"

namespace clviz {
namespace {

class SharedTextureTest : public test::GlComputeTest {
  protected:
    static InteropChoice hostCopy() { return {InteropPath::HostCopy, "test"}; }

    static std::vector<std::uint8_t> randomPixels(int w, int h, unsigned seed) {
        std::mt19937 rng(seed);
        std::vector<std::uint8_t> v(std::size_t(w) * h * 4);
        for (auto& b : v)
            b = std::uint8_t(rng() >> 24);
        return v;
    }

    static cl::Buffer deviceBuffer(const std::vector<std::uint8_t>& pixels) {
        return cl::Buffer(cc_->context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pixels.size(),
                          const_cast<std::uint8_t*>(pixels.data()));
    }

    static std::vector<std::uint8_t> readDevice(const cl::Buffer& b, std::size_t bytes) {
        std::vector<std::uint8_t> out(bytes);
        cc_->queue().enqueueReadBuffer(b, CL_TRUE, 0, bytes, out.data());
        return out;
    }

    // Rotates random pixels on the device (a real kernel result, holes and background included)
    // and returns the result buffer; `out` receives its size.
    static cl::Buffer rotatedOnDevice(int w, int h, double degrees, ImageSize& out) {
        static ImageRotate rotate(*cc_);
        const ImageSize src{w, h};
        RotateParams p;
        p.degrees = degrees;
        p.variant = RotateVariant::BufferBilinear;
        p.fit = RotateFit::Expand;
        p.background = {10, 200, 30, 128};
        out = rotatedSize(src, degrees, p.fit);
        cl::Buffer in = deviceBuffer(randomPixels(w, h, unsigned(w * 131 + h)));
        cl::Buffer dst(cc_->context(), CL_MEM_READ_WRITE, out.bytes());
        rotate.enqueue(p, in, src, dst);
        return dst;
    }
};

TEST_F(SharedTextureTest, HostCopyDeliversTheClResultByteForByte) {
    for (auto [w, h] : {std::pair{1, 1}, std::pair{1, 9}, std::pair{7, 1}, std::pair{13, 5},
                        std::pair{257, 131}, std::pair{640, 479}}) {
        ImageSize size;
        const cl::Buffer result = rotatedOnDevice(w, h, 33.0, size);
        const std::vector<std::uint8_t> expected = readDevice(result, size.bytes());
        SharedTexture texture(*cc_, hostCopy(), size.width, size.height);
        EXPECT_EQ(texture.path(), InteropPath::HostCopy);
        const TextureTransferTiming t = texture.copyFrom(result);
        EXPECT_EQ(t.bytes, size.bytes());
        EXPECT_GE(t.deviceMs, 0.0);
        EXPECT_GE(t.hostMs, 0.0);
        EXPECT_TRUE(texture.readBack() == expected) << size.width << "x" << size.height;
        EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
    }
}

TEST_F(SharedTextureTest, APictureSmallerThanItsTextureStaysExactThroughResizes) {
    SharedTexture texture(*cc_, hostCopy(), 50, 40, 300, 200);
    EXPECT_EQ(texture.capacityWidth(), 300);
    EXPECT_EQ(texture.capacityHeight(), 200);
    const GLuint name = texture.texture();
    // Shrinking and growing within the capacity keeps the allocation.
    for (auto [w, h] :
         {std::pair{50, 40}, std::pair{299, 3}, std::pair{1, 200}, std::pair{300, 200}}) {
        EXPECT_FALSE(texture.resize(w, h));
        EXPECT_EQ(texture.texture(), name);
        const auto pixels = randomPixels(w, h, unsigned(w + 1000 * h));
        texture.copyFrom(deviceBuffer(pixels));
        EXPECT_TRUE(texture.readBack() == pixels) << w << "x" << h;
    }
    // Beyond it the texture grows with headroom, and still holds exactly the picture.
    EXPECT_TRUE(texture.resize(301, 17));
    EXPECT_GE(texture.capacityWidth(), 301);
    EXPECT_GE(texture.capacityHeight(), 200);
    EXPECT_EQ(texture.width(), 301);
    EXPECT_EQ(texture.height(), 17);
    const auto pixels = randomPixels(301, 17, 5);
    texture.copyFrom(deviceBuffer(pixels));
    EXPECT_TRUE(texture.readBack() == pixels);
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
}

TEST_F(SharedTextureTest, HostPixelsUploadAndCopyBackToOpenClExactly) {
    for (auto [w, h] : {std::pair{1, 1}, std::pair{3, 7}, std::pair{1023, 2}}) {
        const auto pixels = randomPixels(w, h, unsigned(7 * w + h));
        SharedTexture texture(*cc_, hostCopy(), w, h);
        texture.upload(pixels.data());
        EXPECT_TRUE(texture.readBack() == pixels);
        cl::Buffer onDevice(cc_->context(), CL_MEM_READ_WRITE, pixels.size());
        texture.copyTo(onDevice);
        EXPECT_TRUE(readDevice(onDevice, pixels.size()) == pixels) << w << "x" << h;
    }
}

TEST_F(SharedTextureTest, GlSharingOnADeviceWithoutItFallsBackAndSaysWhy) {
    if (cc_->info().hasExtension("cl_khr_gl_sharing"))
        GTEST_SKIP() << "this device has cl_khr_gl_sharing; the fallback is for devices without";
    SharedTexture texture(*cc_, {InteropPath::GlSharing, "forced for the test"}, 9, 4);
    EXPECT_EQ(texture.path(), InteropPath::HostCopy);
    EXPECT_NE(texture.fallbackReason().find("cl_khr_gl_sharing"), std::string::npos)
        << texture.fallbackReason();
    const auto pixels = randomPixels(9, 4, 11);
    texture.copyFrom(deviceBuffer(pixels));
    EXPECT_TRUE(texture.readBack() == pixels);
}

TEST_F(SharedTextureTest, EmptyAndOversizedTexturesAreRefusedClearly) {
    const int maxSize = maxGlTextureSize();
    ASSERT_GT(maxSize, 0);
    try {
        SharedTexture t(*cc_, hostCopy(), 0, 5);
        FAIL() << "an empty texture was created";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("empty"), std::string::npos) << e.what();
    }
    try {
        SharedTexture t(*cc_, hostCopy(), maxSize + 1, 1);
        FAIL() << "a texture wider than GL_MAX_TEXTURE_SIZE was created";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("GL_MAX_TEXTURE_SIZE"), std::string::npos) << e.what();
    }
    SharedTexture t(*cc_, hostCopy(), 4, 4);
    EXPECT_THROW(t.resize(4, maxSize + 1), Error);
    EXPECT_THROW(t.resize(-1, 4), Error);
    EXPECT_EQ(t.width(), 4);  // a refused resize changes nothing
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
}

}  // namespace
}  // namespace clviz
