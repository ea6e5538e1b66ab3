#include "eventgenerator.h"

#include <QSaveFile>
#include <algorithm>
#include <cstdio>

namespace {

const char *const shopBase = "https://shop.example/";
const char *const contentPages[] = {"sale", "new-in", "stores", "help/returns", "account", "gift-cards"};
const char *const referralSites[] = {
    "https://www.stylejournal.example/best-of-spring", "https://deals.example/today",
    "https://www.reddit.com/r/frugal/", "https://blog.homeandliving.example/picks",
};

struct Campaign {
    const char *source;
    const char *medium;
    const char *campaign;
    const char *referrer;   // empty when the channel has none (e-mail clients)
};
const Campaign campaigns[] = {
    {"newsletter", "email", "spring_sale_2026", ""},
    {"newsletter", "email", "new_arrivals_week_10", ""},
    {"instagram", "social", "spring_lookbook", "https://www.instagram.com/"},
    {"facebook", "social", "retargeting_cart", "https://www.facebook.com/"},
    {"google", "cpc", "brand_search", "https://www.google.com/"},
    {"google", "cpc", "generic_sneakers", "https://www.google.com/"},
    {"tiktok", "social", "creator_haul", "https://www.tiktok.com/"},
    {"affiliate", "referral", "cashback_partner", "https://cashback.example/"},
};

// Funnel rates, chosen inside commonly reported e-commerce ranges.
const double cartRate = 0.10;              // sessions adding at least one item
const double checkoutRate = 0.38;          // carting sessions that start checkout
const double paymentStepRate = 0.85;
const double reviewStepRate = 0.90;
const double purchaseRate = 0.90;          // of sessions reaching the review step
const double continueBrowsingRate = 0.78;  // geometric session length
const double duplicateRate = 0.01;
const double meanEventsPerSession = 4.9;   // measured on generated streams; spreads session starts

const char hexDigits[] = "0123456789abcdef";

void appendHex(std::string &out, std::uint64_t value, int digits)
{
    for (int i = digits - 1; i >= 0; --i)
        out.push_back(hexDigits[(value >> (4 * i)) & 15]);
}

std::string makeUuid(SeededRandom &random)
{
    std::uint64_t high = random.nextU64();
    std::uint64_t low = random.nextU64();
    high = (high & ~0xF000ULL) | 0x4000ULL;                      // version 4
    low = (low & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL; // RFC 4122 variant
    std::string id;
    id.reserve(36);
    appendHex(id, high >> 32, 8);
    id.push_back('-');
    appendHex(id, (high >> 16) & 0xFFFF, 4);
    id.push_back('-');
    appendHex(id, high & 0xFFFF, 4);
    id.push_back('-');
    appendHex(id, low >> 48, 4);
    id.push_back('-');
    appendHex(id, low & 0xFFFFFFFFFFFFULL, 12);
    return id;
}

} // namespace

struct EventGenerator::Shopper {
    std::string id;
    std::vector<int> favouriteCategories;
};

struct EventGenerator::Session {
    long long sequence = 0;
    std::vector<ShopperEvent> events;
    size_t position = 0;
    long long nextTime() const { return events[position].timestampMs; }
};

bool EventGenerator::SessionOrder::operator()(const Session *a, const Session *b) const
{
    // priority_queue keeps the greatest on top: "greater" means later.
    if (a->nextTime() != b->nextTime())
        return a->nextTime() > b->nextTime();
    return a->sequence > b->sequence;
}

EventGenerator::EventGenerator(const GeneratorOptions &options)
    : m_options(options)
    , m_random(options.seed)
    , m_catalog(m_random)
{
    m_options.shoppers = std::max(1LL, m_options.shoppers);
    m_shoppers.resize(size_t(m_options.shoppers));
    for (Shopper &shopper : m_shoppers) {
        shopper.id = makeUuid(m_random);
        const int favourites = int(m_random.between(1, 3));
        for (int i = 0; i < favourites; ++i)
            shopper.favouriteCategories.push_back(m_catalog.popularCategory(m_random));
    }
    m_shopperActivity = ZipfSampler(m_shoppers.size(), true);
    m_expectedSessions = std::max(1LL, (long long)(double(m_options.events) / meanEventsPerSession));
    m_meanSessionGapMs = double(m_options.spanMs) / double(m_expectedSessions);
    m_nextSessionStartMs = m_options.startMs;
}

EventGenerator::~EventGenerator()
{
    while (!m_active.empty()) {
        delete m_active.top();
        m_active.pop();
    }
}

size_t EventGenerator::pickShopper()
{
    // New shoppers appear throughout the period, so that nearly all of them show up;
    // returning ones follow a Zipf-like activity (a few shoppers visit very often).
    const long long remainingNew = (long long)m_shoppers.size() - (long long)m_shoppersSeen;
    const long long remainingSessions = std::max(1LL, m_expectedSessions - m_sessionsStarted);
    if (remainingNew > 0 && (m_shoppersSeen == 0 || m_random.unit() < double(remainingNew) / double(remainingSessions)))
        return m_shoppersSeen++;
    return m_shopperActivity.sampleBelow(m_random, m_shoppersSeen);
}

void EventGenerator::startSession()
{
    auto *session = new Session;
    session->sequence = m_sessionsStarted++;
    buildJourney(*session);
    m_active.push(session);
    m_nextSessionStartMs += (long long)(m_random.unit() * 2.0 * m_meanSessionGapMs);
}

void EventGenerator::buildJourney(Session &session)
{
    SeededRandom &random = m_random;
    const Shopper &shopper = m_shoppers[pickShopper()];
    std::string sessionId;
    appendHex(sessionId, random.nextU64(), 16);
    long long now = m_nextSessionStartMs;
    std::string previousUrl;

    auto add = [&](ShopperEventType type, const std::string &url) -> ShopperEvent & {
        ShopperEvent &event = session.events.emplace_back();
        event.eventId = makeUuid(random);
        event.timestampMs = now;
        event.shopperId = shopper.id;
        event.sessionId = sessionId;
        event.type = type;
        event.hasPage = true;
        event.page.url = url;
        event.page.referrer = previousUrl;
        previousUrl = url;
        return event;
    };
    auto setProduct = [&](ShopperEvent &event, int productIndex) {
        const CatalogProduct &product = m_catalog.products()[size_t(productIndex)];
        event.hasProduct = true;
        event.product.id = product.id;
        event.product.name = product.name;
        event.product.category = m_catalog.categories()[size_t(product.category)].path;
        event.product.brand = product.brand;
        event.product.priceCents = product.priceCents;
        event.product.currency = "EUR";
    };
    auto productUrl = [&](int productIndex) {
        return std::string(shopBase) + "p/" + m_catalog.products()[size_t(productIndex)].id;
    };
    auto categoryUrl = [&](int category) {
        return std::string(shopBase) + "c/" + m_catalog.categories()[size_t(category)].urlPath;
    };
    auto think = [&](long long low, long long high) { now += random.between(low, high); };

    // Intent: most sessions start from one of the shopper's favourite categories.
    int intent = random.chance(0.7)
        ? shopper.favouriteCategories[random.below(shopper.favouriteCategories.size())]
        : m_catalog.popularCategory(random);

    // Landing page and traffic source.
    ShopperEvent::Page landing;
    const double channel = random.unit();
    if (channel < 0.40) {
        landing.referrer = "https://www.google.com/";
    } else if (channel < 0.60) {
        // direct
    } else if (channel < 0.88) {
        const Campaign &c = campaigns[random.below(sizeof campaigns / sizeof campaigns[0])];
        landing.referrer = c.referrer;
        landing.utmSource = c.source;
        landing.utmMedium = c.medium;
        landing.utmCampaign = c.campaign;
    } else {
        landing.referrer = referralSites[random.below(sizeof referralSites / sizeof referralSites[0])];
    }
    previousUrl = landing.referrer;
    int lastProduct = -1;
    const double entry = random.unit();
    ShopperEvent *first;
    if (entry < 0.5) {
        first = &add(ShopperEventType::PageView, shopBase);
    } else if (entry < 0.8) {
        first = &add(ShopperEventType::ListView, categoryUrl(intent));
    } else {
        lastProduct = m_catalog.popularProduct(random, intent);
        first = &add(ShopperEventType::ProductView, productUrl(lastProduct));
        setProduct(*first, lastProduct);
    }
    first->page.utmSource = landing.utmSource;
    first->page.utmMedium = landing.utmMedium;
    first->page.utmCampaign = landing.utmCampaign;

    // Browsing, with cart additions for the sessions that will add to cart.
    const bool willCart = random.chance(cartRate);
    const int cartTarget = willCart ? 1 + int(random.chance(0.35)) + int(random.chance(0.15)) : 0;
    std::vector<int> cart;
    long long cartTotal = 0;
    auto addToCart = [&](int productIndex) {
        think(3000, 20000);
        cart.push_back(productIndex);
        cartTotal += m_catalog.products()[size_t(productIndex)].priceCents;
        ShopperEvent &event = add(ShopperEventType::AddToCart, productUrl(productIndex));
        setProduct(event, productIndex);
        event.hasCartTotal = true;
        event.cartTotalCents = cartTotal;
    };
    int steps = 0;
    while (random.chance(continueBrowsingRate) && steps < 40) {
        ++steps;
        think(5000, 75000);
        const double action = random.unit();
        if (action < 0.62) {
            if (random.chance(0.2))
                intent = random.chance(0.5) ? m_catalog.popularCategory(random)
                                            : shopper.favouriteCategories[random.below(shopper.favouriteCategories.size())];
            lastProduct = m_catalog.popularProduct(random, intent);
            ShopperEvent &event = add(ShopperEventType::ProductView, productUrl(lastProduct));
            setProduct(event, lastProduct);
            if (int(cart.size()) < cartTarget && random.chance(0.45))
                addToCart(lastProduct);
        } else if (action < 0.90) {
            add(ShopperEventType::ListView, categoryUrl(intent));
        } else {
            add(ShopperEventType::PageView, std::string(shopBase) + contentPages[random.below(sizeof contentPages / sizeof contentPages[0])]);
        }
    }
    if (willCart && cart.empty()) {
        if (lastProduct < 0) {
            think(5000, 40000);
            lastProduct = m_catalog.popularProduct(random, intent);
            setProduct(add(ShopperEventType::ProductView, productUrl(lastProduct)), lastProduct);
        }
        addToCart(lastProduct);
    }
    if (!cart.empty() && random.chance(0.18)) {
        think(5000, 30000);
        const size_t index = random.below(cart.size());
        const int removed = cart[index];
        cart.erase(cart.begin() + long(index));
        cartTotal -= m_catalog.products()[size_t(removed)].priceCents;
        ShopperEvent &event = add(ShopperEventType::RemoveFromCart, std::string(shopBase) + "cart");
        setProduct(event, removed);
        event.hasCartTotal = true;
        event.cartTotalCents = cartTotal;
    }

    // Checkout funnel.
    if (!cart.empty() && random.chance(checkoutRate)) {
        const char *const stepPages[] = {"checkout/shipping", "checkout/payment", "checkout/review"};
        const double stepRates[] = {1.0, paymentStepRate, reviewStepRate};
        int reached = 0;
        for (int step = 0; step < 3 && random.chance(stepRates[step]); ++step) {
            think(15000, 120000);
            ShopperEvent &event = add(ShopperEventType::CheckoutStep, std::string(shopBase) + stepPages[step]);
            event.hasCartTotal = true;
            event.cartTotalCents = cartTotal;
            event.hasCheckoutStep = true;
            event.checkoutStep = step + 1;
            reached = step + 1;
        }
        if (reached == 3 && random.chance(purchaseRate)) {
            think(5000, 30000);
            ShopperEvent &event = add(ShopperEventType::Transaction, std::string(shopBase) + "checkout/confirmation");
            event.hasCartTotal = true;
            event.cartTotalCents = cartTotal;
            event.hasTransaction = true;
            char id[24];
            std::snprintf(id, sizeof id, "T%010lld", ++m_transactionSequence);
            event.transaction.id = id;
            event.transaction.revenueCents = cartTotal;
            event.transaction.itemCount = (long long)cart.size();
        }
    }
}

bool EventGenerator::next(ShopperEvent &event)
{
    if (m_produced >= m_options.events)
        return false;
    if (!m_duplicates.empty() && m_duplicates.front().dueAt <= m_produced) {
        event = std::move(m_duplicates.front().event);
        m_duplicates.pop_front();
        ++m_produced;
        return true;
    }
    while (m_active.empty() || m_nextSessionStartMs <= m_active.top()->nextTime())
        startSession();
    Session *session = m_active.top();
    m_active.pop();
    event = session->events[session->position++];
    if (session->position < session->events.size())
        m_active.push(session);
    else
        delete session;
    // A redelivery repeats an earlier event unchanged, a little later in the stream.
    if (m_random.chance(duplicateRate))
        m_duplicates.push_back({m_produced + m_random.between(1, 40), event});
    ++m_produced;
    return true;
}

Status writeEventRecording(const GeneratorOptions &options, const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{QStringLiteral("%1: cannot write: %2").arg(path, file.errorString())};
    EventGenerator generator(options);
    ShopperEvent event;
    std::string buffer;
    buffer.reserve(1 << 20);
    while (generator.next(event)) {
        appendEventJsonLine(event, buffer);
        if (buffer.size() >= (1 << 20) - 4096) {
            if (file.write(buffer.data(), qint64(buffer.size())) != qint64(buffer.size()))
                return Error{QStringLiteral("%1: write failed: %2").arg(path, file.errorString())};
            buffer.clear();
        }
    }
    if (file.write(buffer.data(), qint64(buffer.size())) != qint64(buffer.size()))
        return Error{QStringLiteral("%1: write failed: %2").arg(path, file.errorString())};
    if (!file.commit())
        return Error{QStringLiteral("%1: cannot save: %2").arg(path, file.errorString())};
    return Status::success();
}
