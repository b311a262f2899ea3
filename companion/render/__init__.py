"""companion.render"""
