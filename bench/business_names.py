"""Real-looking business names for seeded merchants ("Lakshmi Sweets & Sons"): a few hundred
name parts combined, each merchant number its own name, so a trigram index is measured on text
that varies as production's does (not on one shared prefix and a number)."""

from __future__ import annotations

#: Family names, deities, rivers and places that start Indian shop names.
FIRST = (
    "Aarav", "Abhinav", "Aditi", "Aditya", "Agarwal", "Ajanta", "Akash", "Alankar", "Amber",
    "Amrit", "Ananda", "Anjali", "Annapurna", "Apollo", "Arihant", "Arjun", "Arora", "Ashoka",
    "Bajaj", "Balaji", "Banerjee", "Bansal", "Bharat", "Bhavani", "Bose", "Chandra", "Chauhan",
    "Chopra", "Deccan", "Desai", "Devi", "Dhanlaxmi", "Durga", "Ganesh", "Ganga", "Garg", "Gayatri",
    "Godavari", "Gomti", "Gupta", "Harsha", "Himalaya", "Indira", "Indus", "Iyer", "Jain", "Jaipur",
    "Janata", "Jyoti", "Kailash", "Kamal", "Kaveri", "Kesari", "Khanna", "Kiran", "Konkan",
    "Krishna", "Kumar", "Lakshmi", "Lotus", "Madhav", "Mahalaxmi", "Malabar", "Malhotra", "Manav",
    "Mehta", "Meenakshi", "Mishra", "Mittal", "Mohan", "Nair", "Narmada", "Navjeevan", "Neelam",
    "Nilgiri", "Pandey", "Parvati", "Patel", "Pooja", "Prakash", "Pratap", "Prem", "Puri", "Radha",
    "Raghav", "Rajesh", "Ramesh", "Rao", "Ratna", "Reddy", "Rohini", "Sagar", "Sahyadri", "Sai",
    "Saraswati", "Satyam", "Saxena", "Shakti", "Shankar", "Sharma", "Shiv", "Shree", "Siddhi",
    "Singh", "Sinha", "Sree", "Srinivas", "Sunder", "Surya", "Swastik", "Tara", "Thakur",
    "Trimurti", "Tulsi", "Uday", "Ujjwal", "Vaishnavi", "Varma", "Vasant", "Vijay", "Vinayak",
    "Vishal", "Yamuna", "Yash", "Zenith"
)
#: What the business sells or does.
TRADE = (
    "Agencies", "Agro", "Appliances", "Auto", "Bakers", "Bangles", "Bazaar", "Books", "Brass",
    "Builders", "Cables", "Caterers", "Ceramics", "Chemicals", "Clinic", "Cloth", "Coffee",
    "Computers", "Cosmetics", "Couriers", "Crafts", "Dairy", "Decor", "Diagnostics", "Distributors",
    "Dry-Fruits", "Electricals", "Electronics", "Engineering", "Exports", "Fabrics", "Farms",
    "Fashions", "Fitness", "Florists", "Foods", "Footwear", "Furniture", "Garments", "Gems",
    "Glass", "Granites", "Handlooms", "Hardware", "Herbals", "Hosiery", "Hotels", "Impex",
    "Industries", "Infotech", "Interiors", "Jewellers", "Kitchenware", "Leather", "Lighting",
    "Logistics", "Machinery", "Marbles", "Medicals", "Metals", "Mobiles", "Motors", "Opticals",
    "Organics", "Packaging", "Paints", "Paper", "Pharma", "Photo", "Plastics", "Plywood",
    "Polymers", "Pottery", "Printers", "Provisions", "Pumps", "Rice", "Salon", "Sanitary", "Sarees",
    "Seeds", "Silks", "Spices", "Sports", "Stationers", "Steel", "Sweets", "Tailors", "Tea",
    "Telecom", "Textiles", "Tiles", "Tools", "Tours", "Toys", "Trading", "Travels", "Tyres",
    "Utensils", "Watches", "Woodworks", "Yarns"
)
#: How the name ends.
SUFFIX = (
    "Traders", "Enterprises", "Stores", "& Sons", "& Co", "Pvt Ltd", "LLP", "Emporium", "Mart",
    "Centre", "House", "Corner", "Depot", "Works", "Company", "Brothers", "Associates", "Agency",
    "Solutions", "Palace", "Point", "World", "Gallery", "Hub", "Bhandar", "Udyog", "Suppliers",
    "Services", "International", "India"
)

#: Every combination, and a stride coprime to it that scatters consecutive numbers over them.
COMBINATIONS = len(FIRST) * len(TRADE) * len(SUFFIX)
STRIDE = 104_729


def business_name(n: int) -> str:
    """Merchant ``n``'s name: distinct for each ``n`` below ``COMBINATIONS`` (382,500), and
    neighbours share no part more often than chance."""
    index = n * STRIDE % COMBINATIONS
    first, rest = index % len(FIRST), index // len(FIRST)
    return f"{FIRST[first]} {TRADE[rest % len(TRADE)]} {SUFFIX[rest // len(TRADE)]}"
