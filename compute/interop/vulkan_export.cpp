#include "compute/interop/vulkan_export.hpp"

#define VK_NO_PROTOTYPES  // every entry point comes from the loader opened at run time
#include <dlfcn.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "common/error.hpp"

namespace clviz {

std::string formatUuid(const DeviceUuid& uuid) {
    std::string s;
    char hex[3];
    for (std::size_t i = 0; i < uuid.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
        std::snprintf(hex, sizeof hex, "%02x", uuid[i]);
        s += hex;
    }
    return s;
}

std::string vulkanLibraryName() {
    const char* env = std::getenv("CLVIZ_VULKAN_LIBRARY");
    return env && *env ? env : "libvulkan.so.1";
}

struct VulkanDeviceState {
    void* library = nullptr;
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    std::string name;
    DeviceUuid uuid{};
    DeviceUuid driverUuid{};
    bool exportNeedsDedicated = false;
    std::string semaphoreProblem;  // empty: binary semaphores export as opaque fds
    VkPhysicalDeviceMemoryProperties memory{};

    PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
    PFN_vkDestroyInstance destroyInstance = nullptr;
    PFN_vkDestroyDevice destroyDevice = nullptr;
    PFN_vkCreateBuffer createBuffer = nullptr;
    PFN_vkDestroyBuffer destroyBuffer = nullptr;
    PFN_vkGetBufferMemoryRequirements bufferRequirements = nullptr;
    PFN_vkAllocateMemory allocateMemory = nullptr;
    PFN_vkFreeMemory freeMemory = nullptr;
    PFN_vkBindBufferMemory bindBufferMemory = nullptr;
    PFN_vkMapMemory mapMemory = nullptr;
    PFN_vkUnmapMemory unmapMemory = nullptr;
    PFN_vkGetMemoryFdKHR getMemoryFd = nullptr;
    PFN_vkCreateSemaphore createSemaphore = nullptr;
    PFN_vkDestroySemaphore destroySemaphore = nullptr;
    PFN_vkGetSemaphoreFdKHR getSemaphoreFd = nullptr;

    ~VulkanDeviceState() {
        if (device && destroyDevice) destroyDevice(device, nullptr);
        if (instance && destroyInstance) destroyInstance(instance, nullptr);
        if (library) dlclose(library);
    }
};

namespace {

std::string vkResultText(VkResult r) {
    switch (r) {
        case VK_ERROR_OUT_OF_HOST_MEMORY:
            return "VK_ERROR_OUT_OF_HOST_MEMORY";
        case VK_ERROR_OUT_OF_DEVICE_MEMORY:
            return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
        case VK_ERROR_INITIALIZATION_FAILED:
            return "VK_ERROR_INITIALIZATION_FAILED";
        case VK_ERROR_INCOMPATIBLE_DRIVER:
            return "VK_ERROR_INCOMPATIBLE_DRIVER (no Vulkan driver found)";
        case VK_ERROR_EXTENSION_NOT_PRESENT:
            return "VK_ERROR_EXTENSION_NOT_PRESENT";
        case VK_ERROR_INVALID_EXTERNAL_HANDLE:
            return "VK_ERROR_INVALID_EXTERNAL_HANDLE";
        default:
            return "VkResult " + std::to_string(int(r));
    }
}

void check(VkResult r, const char* what) {
    if (r != VK_SUCCESS)
        throw Error(std::string("Vulkan: ") + what + " failed: " + vkResultText(r));
}

template <class F>
F instanceFn(const VulkanDeviceState& s, const char* name) {
    auto f = reinterpret_cast<F>(s.getInstanceProcAddr(s.instance, name));
    if (!f) throw Error(std::string("Vulkan: the loader has no ") + name);
    return f;
}

bool hasDeviceExtension(const VulkanDeviceState& s, VkPhysicalDevice pd, const char* name) {
    auto enumerate = instanceFn<PFN_vkEnumerateDeviceExtensionProperties>(
        s, "vkEnumerateDeviceExtensionProperties");
    std::uint32_t count = 0;
    if (enumerate(pd, nullptr, &count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkExtensionProperties> props(count);
    if (enumerate(pd, nullptr, &count, props.data()) != VK_SUCCESS) return false;
    for (const auto& p : props)
        if (std::strcmp(p.extensionName, name) == 0) return true;
    return false;
}

// Opens the loader and an instance (Vulkan 1.1: device UUIDs and external memory are core).
void openInstance(VulkanDeviceState& s) {
    const std::string lib = vulkanLibraryName();
    s.library = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!s.library)
        throw Error("no Vulkan loader (" + lib + " not found; Debian package libvulkan1)");
    s.getInstanceProcAddr =
        reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(s.library, "vkGetInstanceProcAddr"));
    if (!s.getInstanceProcAddr) throw Error(lib + " has no vkGetInstanceProcAddr");
    auto createInstance = instanceFn<PFN_vkCreateInstance>(s, "vkCreateInstance");
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "clviz";
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    check(createInstance(&info, nullptr, &s.instance), "vkCreateInstance");
    s.destroyInstance = instanceFn<PFN_vkDestroyInstance>(s, "vkDestroyInstance");
}

// Whether buffers in opaque-fd memory can be exported, and whether only as dedicated allocations.
bool canExportBuffers(const VulkanDeviceState& s, VkPhysicalDevice pd, bool& dedicatedOnly) {
    auto query = instanceFn<PFN_vkGetPhysicalDeviceExternalBufferProperties>(
        s, "vkGetPhysicalDeviceExternalBufferProperties");
    VkPhysicalDeviceExternalBufferInfo info{};
    info.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO;
    info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkExternalBufferProperties props{};
    props.sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES;
    query(pd, &info, &props);
    const auto features = props.externalMemoryProperties.externalMemoryFeatures;
    dedicatedOnly = (features & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT) != 0;
    return (features & VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT) != 0;
}

// Empty when binary semaphores can be exported as opaque fds, else why not.
std::string semaphoreExportProblem(const VulkanDeviceState& s, VkPhysicalDevice pd,
                                   const std::string& name) {
    if (!hasDeviceExtension(s, pd, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME))
        return "Vulkan device " + name + " has no " VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME;
    auto query = instanceFn<PFN_vkGetPhysicalDeviceExternalSemaphoreProperties>(
        s, "vkGetPhysicalDeviceExternalSemaphoreProperties");
    VkPhysicalDeviceExternalSemaphoreInfo info{};
    info.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO;
    info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkExternalSemaphoreProperties props{};
    props.sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES;
    query(pd, &info, &props);
    if (!(props.externalSemaphoreFeatures & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT))
        return "Vulkan device " + name + " cannot export semaphores as opaque fds";
    return {};
}

// Picks the physical device: the one with `uuid`, or the first that can export memory.
void pickDevice(VulkanDeviceState& s, const std::optional<DeviceUuid>& uuid) {
    auto enumerate = instanceFn<PFN_vkEnumeratePhysicalDevices>(s, "vkEnumeratePhysicalDevices");
    auto properties2 =
        instanceFn<PFN_vkGetPhysicalDeviceProperties2>(s, "vkGetPhysicalDeviceProperties2");
    std::uint32_t count = 0;
    check(enumerate(s.instance, &count, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> devices(count);
    check(enumerate(s.instance, &count, devices.data()), "vkEnumeratePhysicalDevices");
    if (devices.empty()) throw Error("the Vulkan loader found no device (no Vulkan driver?)");

    std::string seen;
    for (VkPhysicalDevice pd : devices) {
        VkPhysicalDeviceIDProperties id{};
        id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
        VkPhysicalDeviceProperties2 props{};
        props.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        props.pNext = &id;
        properties2(pd, &props);
        DeviceUuid u;
        std::memcpy(u.data(), id.deviceUUID, u.size());
        const std::string name = props.properties.deviceName;
        seen += (seen.empty() ? "" : ", ") + name + " " + formatUuid(u);
        if (uuid && u != *uuid) continue;
        bool dedicatedOnly = false;
        if (!hasDeviceExtension(s, pd, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME) ||
            !canExportBuffers(s, pd, dedicatedOnly)) {
            if (uuid) throw Error("Vulkan device " + name + " cannot export memory as an fd");
            continue;
        }
        s.physical = pd;
        s.name = name;
        s.uuid = u;
        std::memcpy(s.driverUuid.data(), id.driverUUID, s.driverUuid.size());
        s.exportNeedsDedicated = dedicatedOnly;
        s.semaphoreProblem = semaphoreExportProblem(s, pd, name);
        return;
    }
    if (uuid)
        throw Error("no Vulkan device has UUID " + formatUuid(*uuid) + " (found: " + seen + ")");
    throw Error("no Vulkan device can export memory as an fd (found: " + seen + ")");
}

void createDevice(VulkanDeviceState& s) {
    auto memoryProps = instanceFn<PFN_vkGetPhysicalDeviceMemoryProperties>(
        s, "vkGetPhysicalDeviceMemoryProperties");
    memoryProps(s.physical, &s.memory);
    auto create = instanceFn<PFN_vkCreateDevice>(s, "vkCreateDevice");
    // A device needs one queue; nothing is ever submitted to it.
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{};
    queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue.queueFamilyIndex = 0;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    const char* extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME,
                                VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME};
    VkDeviceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = s.semaphoreProblem.empty() ? 2 : 1;
    info.ppEnabledExtensionNames = extensions;
    check(create(s.physical, &info, nullptr, &s.device), "vkCreateDevice");

    auto getDeviceProcAddr = instanceFn<PFN_vkGetDeviceProcAddr>(s, "vkGetDeviceProcAddr");
    auto fn = [&](auto& slot, const char* name) {
        slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
            getDeviceProcAddr(s.device, name));
        if (!slot) throw Error(std::string("Vulkan: the device has no ") + name);
    };
    fn(s.destroyDevice, "vkDestroyDevice");
    fn(s.createBuffer, "vkCreateBuffer");
    fn(s.destroyBuffer, "vkDestroyBuffer");
    fn(s.bufferRequirements, "vkGetBufferMemoryRequirements");
    fn(s.allocateMemory, "vkAllocateMemory");
    fn(s.freeMemory, "vkFreeMemory");
    fn(s.bindBufferMemory, "vkBindBufferMemory");
    fn(s.mapMemory, "vkMapMemory");
    fn(s.unmapMemory, "vkUnmapMemory");
    fn(s.getMemoryFd, "vkGetMemoryFdKHR");
    fn(s.createSemaphore, "vkCreateSemaphore");
    fn(s.destroySemaphore, "vkDestroySemaphore");
    if (s.semaphoreProblem.empty()) fn(s.getSemaphoreFd, "vkGetSemaphoreFdKHR");
}

int memoryTypeIndex(const VkPhysicalDeviceMemoryProperties& mem, std::uint32_t allowed,
                    VkMemoryPropertyFlags wanted) {
    for (std::uint32_t i = 0; i < mem.memoryTypeCount; ++i)
        if ((allowed & (1u << i)) && (mem.memoryTypes[i].propertyFlags & wanted) == wanted)
            return int(i);
    return -1;
}

}  // namespace

std::shared_ptr<VulkanExporter> VulkanExporter::open(const std::optional<DeviceUuid>& uuid) {
    auto state = std::make_shared<VulkanDeviceState>();
    openInstance(*state);
    pickDevice(*state, uuid);
    createDevice(*state);
    std::shared_ptr<VulkanExporter> exporter(new VulkanExporter());
    exporter->device_ = std::move(state);
    return exporter;
}

std::shared_ptr<VulkanExporter> VulkanExporter::shared(const DeviceUuid& uuid) {
    static std::mutex mutex;
    static std::weak_ptr<VulkanExporter> cached;
    std::lock_guard lock(mutex);
    if (auto e = cached.lock(); e && e->deviceUuid() == uuid) return e;
    auto e = open(uuid);
    cached = e;
    return e;
}

const std::string& VulkanExporter::deviceName() const {
    return device_->name;
}

const DeviceUuid& VulkanExporter::deviceUuid() const {
    return device_->uuid;
}

const DeviceUuid& VulkanExporter::driverUuid() const {
    return device_->driverUuid;
}

std::unique_ptr<ExportedMemory> VulkanExporter::allocate(std::size_t bytes, bool hostVisible) {
    if (bytes == 0) throw Error("Vulkan: cannot allocate 0 bytes of exportable memory");
    VulkanDeviceState& s = *device_;
    std::unique_ptr<ExportedMemory> m(new ExportedMemory());
    m->device_ = device_;

    // A buffer only to learn the memory requirements (and to bind, as the spec expects).
    VkExternalMemoryBufferCreateInfo external{};
    external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
    external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkBufferCreateInfo bufferInfo{};
    bufferInfo.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bufferInfo.pNext = &external;
    bufferInfo.size = bytes;
    bufferInfo.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer buffer = VK_NULL_HANDLE;
    check(s.createBuffer(s.device, &bufferInfo, nullptr, &buffer), "vkCreateBuffer");
    m->buffer_ = reinterpret_cast<std::uint64_t>(buffer);

    VkMemoryRequirements req{};
    s.bufferRequirements(s.device, buffer, &req);
    const VkMemoryPropertyFlags wanted =
        hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                    : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    const int type = memoryTypeIndex(s.memory, req.memoryTypeBits, wanted);
    if (type < 0)
        throw Error(std::string("Vulkan: ") + s.name + " has no " +
                    (hostVisible ? "host-visible" : "device-local") + " memory type for buffers");

    VkExportMemoryAllocateInfo exportInfo{};

    exportInfo.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO;
    exportInfo.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkMemoryDedicatedAllocateInfo dedicated{};
    dedicated.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO;
    dedicated.buffer = buffer;
    if (s.exportNeedsDedicated) exportInfo.pNext = &dedicated;
    VkMemoryAllocateInfo allocInfo{};
    allocInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocInfo.pNext = &exportInfo;
    allocInfo.allocationSize = req.size;
    allocInfo.memoryTypeIndex = std::uint32_t(type);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    check(s.allocateMemory(s.device, &allocInfo, nullptr, &memory),
          ("vkAllocateMemory of " + std::to_string(req.size) + " exportable bytes").c_str());
    m->memory_ = reinterpret_cast<std::uint64_t>(memory);
    m->allocationSize_ = req.size;
    m->dedicated_ = s.exportNeedsDedicated;
    check(s.bindBufferMemory(s.device, buffer, memory, 0), "vkBindBufferMemory");
    return m;
}

const std::string& VulkanExporter::semaphoreExportProblem() const {
    return device_->semaphoreProblem;
}

std::unique_ptr<ExportedSemaphore> VulkanExporter::createSemaphore() {
    VulkanDeviceState& s = *device_;
    if (!s.semaphoreProblem.empty()) throw Error(s.semaphoreProblem);
    VkExportSemaphoreCreateInfo exportInfo{};
    exportInfo.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO;
    exportInfo.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkSemaphoreCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    info.pNext = &exportInfo;
    VkSemaphore semaphore = VK_NULL_HANDLE;
    check(s.createSemaphore(s.device, &info, nullptr, &semaphore), "vkCreateSemaphore");
    std::unique_ptr<ExportedSemaphore> out(new ExportedSemaphore());
    out->device_ = device_;
    out->semaphore_ = reinterpret_cast<std::uint64_t>(semaphore);
    return out;
}

ExportedSemaphore::~ExportedSemaphore() {
    if (device_ && semaphore_)
        device_->destroySemaphore(device_->device, reinterpret_cast<VkSemaphore>(semaphore_),
                                  nullptr);
}

int ExportedSemaphore::exportFd() const {
    VulkanDeviceState& s = *device_;
    VkSemaphoreGetFdInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR;
    info.semaphore = reinterpret_cast<VkSemaphore>(semaphore_);
    info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    check(s.getSemaphoreFd(s.device, &info, &fd), "vkGetSemaphoreFdKHR");
    return fd;
}

ExportedMemory::~ExportedMemory() {
    if (!device_) return;
    VulkanDeviceState& s = *device_;
    auto memory = reinterpret_cast<VkDeviceMemory>(memory_);
    if (mapped_) s.unmapMemory(s.device, memory);
    if (buffer_) s.destroyBuffer(s.device, reinterpret_cast<VkBuffer>(buffer_), nullptr);
    if (memory_) s.freeMemory(s.device, memory, nullptr);
}

int ExportedMemory::exportFd() const {
    VulkanDeviceState& s = *device_;
    VkMemoryGetFdInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR;
    info.memory = reinterpret_cast<VkDeviceMemory>(memory_);
    info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    check(s.getMemoryFd(s.device, &info, &fd), "vkGetMemoryFdKHR");
    return fd;
}

void* ExportedMemory::map() {
    if (mapped_) return mapped_;
    VulkanDeviceState& s = *device_;
    check(s.mapMemory(s.device, reinterpret_cast<VkDeviceMemory>(memory_), 0, VK_WHOLE_SIZE, 0,
                      &mapped_),
          "vkMapMemory");
    return mapped_;
}

}  // namespace clviz
