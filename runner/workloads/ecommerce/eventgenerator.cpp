#include "eventgenerator.h"

#include "atomicfile.h"
#include "interruption.h"

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
    size_t shopper = 0;   // index in m_shoppers
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
    for (size_t built = 0; built < m_shoppers.size(); ++built) {
        // Millions of shoppers take seconds: an interrupted generator keeps what it built and
        // produces no event (its callers see interruptRequested() and stop).
        if ((built & 0xFFFF) == 0xFFFF && interruptRequested()) {
            m_shoppers.resize(built);
            m_options.events = 0;
            break;
        }
        Shopper &shopper = m_shoppers[built];
        shopper.id = makeUuid(m_random);
        const int favourites = int(m_random.between(1, 3));
        for (int i = 0; i < favourites; ++i)
            shopper.favouriteCategories.push_back(m_catalog.popularCategory(m_random));
    }
    m_shopperActivity = ZipfSampler(m_shoppers.size(), true);
    m_appeared.assign(m_shoppers.size(), false);
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

// One session's events, drawn in a fixed order from the generator's random stream: landing,
// browsing (with cart additions), maybe a removal, then the checkout funnel.
class EventGenerator::Journey {
public:
    Journey(EventGenerator &generator, Session &session, const Shopper &shopper)
        : m_random(generator.m_random), m_catalog(generator.m_catalog), m_shopper(shopper), m_session(session),
          m_transactions(generator.m_transactionSequence), m_now(generator.m_nextSessionStartMs)
    {
        appendHex(m_sessionId, m_random.nextU64(), 16);
    }

    void land();
    void browse();
    void maybeRemoveFromCart();
    void checkOut();

private:
    ShopperEvent &add(ShopperEventType type, const std::string &url)
    {
        ShopperEvent &event = m_session.events.emplace_back();
        event.eventId = makeUuid(m_random);
        event.timestampMs = m_now;
        event.shopperId = m_shopper.id;
        event.sessionId = m_sessionId;
        event.type = type;
        event.hasPage = true;
        event.page.url = url;
        event.page.referrer = m_previousUrl;
        m_previousUrl = url;
        return event;
    }
    void setProduct(ShopperEvent &event, int productIndex) const
    {
        const CatalogProduct &product = m_catalog.products()[size_t(productIndex)];
        event.hasProduct = true;
        event.product.id = product.id;
        event.product.name = product.name;
        event.product.category = m_catalog.categories()[size_t(product.category)].path;
        event.product.brand = product.brand;
        event.product.priceCents = product.priceCents;
        event.product.currency = "EUR";
    }
    std::string productUrl(int productIndex) const
    {
        return std::string(shopBase) + "p/" + m_catalog.products()[size_t(productIndex)].id;
    }
    std::string categoryUrl(int category) const
    {
        return std::string(shopBase) + "c/" + m_catalog.categories()[size_t(category)].urlPath;
    }
    void think(long long low, long long high) { m_now += m_random.between(low, high); }
    int favouriteCategory() { return m_shopper.favouriteCategories[m_random.below(m_shopper.favouriteCategories.size())]; }
    void viewProduct();
    void addToCart(int productIndex);

    SeededRandom &m_random;
    const ShopCatalog &m_catalog;
    const Shopper &m_shopper;
    Session &m_session;
    long long &m_transactions;
    long long m_now;
    std::string m_sessionId;
    std::string m_previousUrl;
    int m_intent = 0;
    int m_lastProduct = -1;
    bool m_willCart = false;
    int m_cartTarget = 0;
    std::vector<int> m_cart;
    long long m_cartTotal = 0;
};

// Intent, traffic source and the landing page.
void EventGenerator::Journey::land()
{
    // Intent: most sessions start from one of the shopper's favourite categories.
    m_intent = m_random.chance(0.7) ? favouriteCategory() : m_catalog.popularCategory(m_random);
    ShopperEvent::Page landing;
    const double channel = m_random.unit();
    if (channel < 0.40) {
        landing.referrer = "https://www.google.com/";
    } else if (channel < 0.60) {
        // direct
    } else if (channel < 0.88) {
        const Campaign &c = campaigns[m_random.below(sizeof campaigns / sizeof campaigns[0])];
        landing.referrer = c.referrer;
        landing.utmSource = c.source;
        landing.utmMedium = c.medium;
        landing.utmCampaign = c.campaign;
    } else {
        landing.referrer = referralSites[m_random.below(sizeof referralSites / sizeof referralSites[0])];
    }
    m_previousUrl = landing.referrer;
    const double entry = m_random.unit();
    ShopperEvent *first;
    if (entry < 0.5) {
        first = &add(ShopperEventType::PageView, shopBase);
    } else if (entry < 0.8) {
        first = &add(ShopperEventType::ListView, categoryUrl(m_intent));
    } else {
        m_lastProduct = m_catalog.popularProduct(m_random, m_intent);
        first = &add(ShopperEventType::ProductView, productUrl(m_lastProduct));
        setProduct(*first, m_lastProduct);
    }
    first->page.utmSource = landing.utmSource;
    first->page.utmMedium = landing.utmMedium;
    first->page.utmCampaign = landing.utmCampaign;
}

void EventGenerator::Journey::addToCart(int productIndex)
{
    think(3000, 20000);
    m_cart.push_back(productIndex);
    m_cartTotal += m_catalog.products()[size_t(productIndex)].priceCents;
    ShopperEvent &event = add(ShopperEventType::AddToCart, productUrl(productIndex));
    setProduct(event, productIndex);
    event.hasCartTotal = true;
    event.cartTotalCents = m_cartTotal;
}

void EventGenerator::Journey::viewProduct()
{
    if (m_random.chance(0.2))
        m_intent = m_random.chance(0.5) ? m_catalog.popularCategory(m_random) : favouriteCategory();
    m_lastProduct = m_catalog.popularProduct(m_random, m_intent);
    ShopperEvent &event = add(ShopperEventType::ProductView, productUrl(m_lastProduct));
    setProduct(event, m_lastProduct);
    if (int(m_cart.size()) < m_cartTarget && m_random.chance(0.45))
        addToCart(m_lastProduct);
}

// Browsing, with cart additions for the sessions that will add to cart.
void EventGenerator::Journey::browse()
{
    m_willCart = m_random.chance(cartRate);
    m_cartTarget = m_willCart ? 1 + int(m_random.chance(0.35)) + int(m_random.chance(0.15)) : 0;
    int steps = 0;
    while (m_random.chance(continueBrowsingRate) && steps < 40) {
        ++steps;
        think(5000, 75000);
        const double action = m_random.unit();
        if (action < 0.62)
            viewProduct();
        else if (action < 0.90)
            add(ShopperEventType::ListView, categoryUrl(m_intent));
        else
            add(ShopperEventType::PageView, std::string(shopBase) + contentPages[m_random.below(sizeof contentPages / sizeof contentPages[0])]);
    }
    if (m_willCart && m_cart.empty()) {
        if (m_lastProduct < 0) {
            think(5000, 40000);
            m_lastProduct = m_catalog.popularProduct(m_random, m_intent);
            setProduct(add(ShopperEventType::ProductView, productUrl(m_lastProduct)), m_lastProduct);
        }
        addToCart(m_lastProduct);
    }
}

void EventGenerator::Journey::maybeRemoveFromCart()
{
    if (m_cart.empty() || !m_random.chance(0.18))
        return;
    think(5000, 30000);
    const size_t index = m_random.below(m_cart.size());
    const int removed = m_cart[index];
    m_cart.erase(m_cart.begin() + long(index));
    m_cartTotal -= m_catalog.products()[size_t(removed)].priceCents;
    ShopperEvent &event = add(ShopperEventType::RemoveFromCart, std::string(shopBase) + "cart");
    setProduct(event, removed);
    event.hasCartTotal = true;
    event.cartTotalCents = m_cartTotal;
}

// The checkout funnel: shipping, payment, review, then the purchase.
void EventGenerator::Journey::checkOut()
{
    if (m_cart.empty() || !m_random.chance(checkoutRate))
        return;
    const char *const stepPages[] = {"checkout/shipping", "checkout/payment", "checkout/review"};
    const double stepRates[] = {1.0, paymentStepRate, reviewStepRate};
    int reached = 0;
    for (int step = 0; step < 3 && m_random.chance(stepRates[step]); ++step) {
        think(15000, 120000);
        ShopperEvent &event = add(ShopperEventType::CheckoutStep, std::string(shopBase) + stepPages[step]);
        event.hasCartTotal = true;
        event.cartTotalCents = m_cartTotal;
        event.hasCheckoutStep = true;
        event.checkoutStep = step + 1;
        reached = step + 1;
    }
    if (reached != 3 || !m_random.chance(purchaseRate))
        return;
    think(5000, 30000);
    ShopperEvent &event = add(ShopperEventType::Transaction, std::string(shopBase) + "checkout/confirmation");
    event.hasCartTotal = true;
    event.cartTotalCents = m_cartTotal;
    event.hasTransaction = true;
    char id[24];
    std::snprintf(id, sizeof id, "T%010lld", ++m_transactions);
    event.transaction.id = id;
    event.transaction.revenueCents = m_cartTotal;
    event.transaction.itemCount = (long long)m_cart.size();
}

void EventGenerator::buildJourney(Session &session)
{
    session.shopper = pickShopper();
    const Shopper &shopper = m_shoppers[session.shopper];
    Journey journey(*this, session, shopper);
    journey.land();
    journey.browse();
    journey.maybeRemoveFromCart();
    journey.checkOut();
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
    // A redelivery below repeats an event of a shopper counted here already.
    if (!m_appeared[session->shopper]) {
        m_appeared[session->shopper] = true;
        ++m_shoppersAppeared;
    }
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

Outcome<EventRecording> writeEventRecording(const GeneratorOptions &options, const QString &path)
{
    AtomicFileWriter file;
    if (Status opened = file.open(path); !opened)
        return Error{opened.error()};
    EventGenerator generator(options);
    ShopperEvent event;
    std::string buffer;
    buffer.reserve(1 << 20);
    while (generator.next(event)) {
        appendEventJsonLine(event, buffer);
        if (buffer.size() >= (1 << 20) - 4096) {
            if (Status written = file.write(buffer.data(), buffer.size()); !written)
                return Error{written.error()};
            buffer.clear();
            // Interrupted: the target is left as it was (a FIFO or device keeps what it got).
            if (interruptRequested()) {
                file.abandon();
                return Error{QStringLiteral("%1: interrupted after %2 events; nothing was replaced")
                                 .arg(path).arg(generator.produced())};
            }
        }
    }
    if (Status written = file.write(buffer.data(), buffer.size()); !written)
        return Error{written.error()};
    if (interruptRequested()) {
        file.abandon();
        return Error{QStringLiteral("%1: interrupted after %2 events; nothing was replaced").arg(path).arg(generator.produced())};
    }
    if (Status committed = file.commit(); !committed)
        return Error{committed.error()};
    return EventRecording{generator.produced(), generator.shoppersAppeared()};
}
